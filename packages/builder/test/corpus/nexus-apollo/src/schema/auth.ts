import { compare } from 'bcryptjs';
import { mutationType, nonNull, stringArg } from 'nexus';

export const Mutation = mutationType({
  definition(t) {
    t.string('login', {
      args: { email: nonNull(stringArg()), password: nonNull(stringArg()) },
      async resolve(_root, { email, password }, ctx) {
        const user = await ctx.prisma.user.findUnique({ where: { email } });
        if (!user || !(await compare(password, user.passwordHash))) return null;
        return user.id;
      },
    });
  },
});

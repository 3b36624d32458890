import { Args, Field, Mutation, ObjectType, Resolver } from '@nestjs/graphql';
import { Pool } from 'pg';
import { createHash, randomBytes } from 'node:crypto';

const pool = new Pool();

@ObjectType()
export class Session {
  @Field() token!: string;
}

@Resolver(() => Session)
export class AuthResolver {
  @Mutation(() => Session)
  async login(@Args('email') email: string, @Args('password') password: string) {
    const { rows } = await pool.query('SELECT id, password_hash FROM users WHERE email = $1', [email]);
    const ok = rows[0] && rows[0].password_hash === createHash('sha256').update(password).digest('hex');
    if (!ok) throw new Error('invalid credentials');
    return { token: randomBytes(32).toString('hex') };
  }
}

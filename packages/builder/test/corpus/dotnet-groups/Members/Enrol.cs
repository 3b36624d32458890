using Library.Data;
using MediatR;

namespace Library.Members;

public class Enrol
{
    public class MemberData
    {
        public string? Name { get; init; }
        public string? Email { get; init; }
    }

    public record Command(MemberData Member) : IRequest<MemberEnvelope>;

    public class Handler(LibraryDb db) : IRequestHandler<Command, MemberEnvelope>
    {
        public async Task<MemberEnvelope> Handle(Command message, CancellationToken cancellationToken)
        {
            var member = new Member { Code = Guid.NewGuid().ToString("N")[..8], Name = message.Member.Name ?? "", Email = message.Member.Email ?? "" };
            db.Members.Add(member);
            await db.SaveChangesAsync(cancellationToken);
            return new MemberEnvelope(member.Code, member.Name);
        }
    }
}

using Library.Data;
using MediatR;

namespace Library.Members;

public class ReplaceCard
{
    public record Model(string Barcode, string Reason);

    public record Command(string Code, Model Card) : IRequest<MemberEnvelope>;

    public class Handler(LibraryDb db) : IRequestHandler<Command, MemberEnvelope>
    {
        public async Task<MemberEnvelope> Handle(Command message, CancellationToken cancellationToken)
        {
            var member = await db.Members.FindAsync([message.Code], cancellationToken) ?? throw new KeyNotFoundException(message.Code);
            await db.SaveChangesAsync(cancellationToken);
            return new MemberEnvelope(member.Code, member.Name);
        }
    }
}

using Library.Data;
using MediatR;
using Microsoft.EntityFrameworkCore;

namespace Library.Members;

public class Remove
{
    public record Command(string Code) : IRequest;

    public class Handler(LibraryDb db) : IRequestHandler<Command>
    {
        public async Task Handle(Command message, CancellationToken cancellationToken) =>
            await db.Members.Where(m => m.Code == message.Code).ExecuteDeleteAsync(cancellationToken);
    }
}

using Library.Data;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace Library.Loans;

public static class LoansApi
{
    // Called as `app.MapLoans()`: the group, and so the prefix, is built here.
    public static RouteGroupBuilder MapLoans(this IEndpointRouteBuilder endpoints)
    {
        var loans = endpoints.MapGroup("/loans");

        loans.RequireAuthorization();

        loans.MapPost("/", async Task<Results<Created<LoanView>, Conflict>> (LibraryDb db, ILogger<LoanRequest> log, LoanRequest request) =>
        {
            if (await db.Loans.AnyAsync(l => l.BookId == request.BookId && l.ReturnedAt == null))
            {
                return TypedResults.Conflict();
            }

            var loan = new Loan { Id = Guid.NewGuid(), BookId = request.BookId, MemberCode = request.MemberCode, Due = DateTime.UtcNow.AddDays(request.Days) };
            db.Loans.Add(loan);
            await db.SaveChangesAsync();
            log.LogInformation("Lent book {BookId}", request.BookId);
            return TypedResults.Created($"/loans/{loan.Id}", new LoanView(loan.Id, loan.Due));
        });

        loans.MapPut("/{loanId}/return",
            async Task<Results<Ok, NotFound>> (Guid loanId, [FromServices] LibraryDb db, ReturnNote note)
            =>
            {
                var loan = await db.Loans.FindAsync(loanId);
                if (loan is null)
                {
                    return TypedResults.NotFound();
                }

                loan.ReturnedAt = DateTime.UtcNow;
                loan.Condition = note.Condition;
                await db.SaveChangesAsync();
                return TypedResults.Ok();
            });

        return loans;
    }
}

public sealed class LoanRequest
{
    public int BookId { get; init; }
    public string MemberCode { get; init; } = "";
    public int Days { get; init; } = 14;
}

public sealed record ReturnNote(string? Condition);

public record LoanView(Guid Id, DateTime Due);

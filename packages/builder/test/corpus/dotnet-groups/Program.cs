// Corpus fixture: minimal APIs under nested route groups (a `.WithTags(...)` chain, a group of a
// group), lambdas with explicit return types, a registered service that is a class with a settable
// property, and an extension method that builds its own group.
using Library.Data;
using Library.Loans;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddDbContext<LibraryDb>(o => o.UseNpgsql(builder.Configuration.GetConnectionString("Library")));
builder.Services.AddScoped<ShelfClock>();
builder.Services.AddMediatR(c => c.RegisterServicesFromAssemblyContaining<Program>());
builder.Services.AddControllers();

var app = builder.Build();

app.MapControllers();
app.MapLoans();

var shelves = app.MapGroup("/shelves").WithTags("Shelves").RequireAuthorization();
var shelf = shelves.MapGroup("/{shelfId:int}");

shelf.MapGet("/books", (int shelfId, LibraryDb db) => db.Books.Where(b => b.ShelfId == shelfId).ToListAsync());

shelf.MapPost("/books", async Task<Created<BookView>> (int shelfId, ShelfClock clock, NewBook book, LibraryDb db, CancellationToken ct) =>
{
    var entity = new Book { ShelfId = shelfId, Isbn = book.Isbn, Title = book.Title, AddedAt = clock.Now };
    db.Books.Add(entity);
    await db.SaveChangesAsync(ct);
    return TypedResults.Created($"/shelves/{shelfId}/books/{entity.Id}", new BookView(entity.Id, entity.Title));
});

shelf.MapDelete("/books/{bookId:int}", async Task<Results<NoContent, NotFound>> (int shelfId, int bookId, LibraryDb db) =>
    await db.Books.Where(b => b.ShelfId == shelfId && b.Id == bookId).ExecuteDeleteAsync() == 0
        ? TypedResults.NotFound()
        : TypedResults.NoContent());

app.Run();

public record NewBook(string Isbn, string Title);

public record BookView(int Id, string Title);

// Scoped per request: the clock of the branch that serves it.
public class ShelfClock
{
    public TimeZoneInfo Zone { get; set; } = TimeZoneInfo.Utc;

    public DateTime Now => TimeZoneInfo.ConvertTimeFromUtc(DateTime.UtcNow, Zone);
}

using Microsoft.EntityFrameworkCore;

namespace Library.Data;

public class LibraryDb(DbContextOptions<LibraryDb> options) : DbContext(options)
{
    public DbSet<Book> Books => Set<Book>();
    public DbSet<Loan> Loans => Set<Loan>();
    public DbSet<Member> Members => Set<Member>();
}

public class Book
{
    public int Id { get; set; }
    public int ShelfId { get; set; }
    public string Isbn { get; set; } = "";
    public string Title { get; set; } = "";
    public DateTime AddedAt { get; set; }
}

public class Loan
{
    public Guid Id { get; set; }
    public int BookId { get; set; }
    public string MemberCode { get; set; } = "";
    public DateTime Due { get; set; }
    public DateTime? ReturnedAt { get; set; }
    public string? Condition { get; set; }
}

public class Member
{
    public string Code { get; set; } = "";
    public string Name { get; set; } = "";
    public string Email { get; set; } = "";
}

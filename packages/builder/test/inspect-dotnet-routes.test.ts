/**
 * ASP.NET Core as real projects write it: MediatR-style `[FromBody] Create.Command` nested body
 * types, minimal APIs under `MapGroup` prefixes (nested, chained, built in an extension method),
 * lambdas with explicit return types, the body told apart from injected services, and
 * `[Route("api/[controller]/[action]")]` with method-level routes. C# written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { scanDotnet } from '../src/inspect/patterns/dotnet.js';


const project = tempProjects('dotnet');

const CSPROJ = '<Project Sdk="Microsoft.NET.Sdk.Web">\n</Project>\n';
const rows = (endpoints: ReadonlyArray<{ method: string; route: string; bodyType?: string; span?: { start: number; end: number } }>) =>
  endpoints.map((e) => `${e.method} ${e.route}${e.span ? ` [${e.span.start}-${e.span.end}]` : ''}`);

describe('ASP.NET nested body types (D9)', () => {
  it('reads `[FromBody] Create.Command` as the nested record or class of the namespace the controller is in', async () => {
    const controller = (feature: string, body: string) => [
      `namespace Blog.Features.${feature};`,
      '',
      `[Route("${feature.toLowerCase()}")]`,
      `public class ${feature}Controller(IMediator mediator) : Controller`,
      '{',
      '    [HttpPost]',
      '    public Task<Envelope> Create(',
      `        [FromBody] ${body} command,`,
      '        CancellationToken cancellationToken',
      '    ) => mediator.Send(command, cancellationToken);',
      '}',
    ].join('\n');
    const dir = project({
      'Blog/Blog.csproj': CSPROJ,
      // Walked first: a homonym `Create.Command` in another namespace must not lend its fields.
      'Blog/Features/Articles/Create.cs': [
        'namespace Blog.Features.Articles;',
        'public class Create',
        '{',
        '    public class ArticleData',
        '    {',
        '        public string? Title { get; init; }',
        '        public string? Body { get; init; }',
        '    }',
        '    public record Command(ArticleData Article) : IRequest<Envelope>;',
        '}',
      ].join('\n'),
      'Blog/Features/Articles/ArticlesController.cs': controller('Articles', 'Create.Command'),
      'Blog/Features/Comments/Create.cs': [
        'namespace Blog.Features.Comments;',
        'public class Create',
        '{',
        '    public class Model',
        '    {',
        '        public string Body { get; set; } = "";',
        '        public int? ReplyTo { get; set; }',
        '    }',
        '}',
      ].join('\n'),
      'Blog/Features/Comments/CommentsController.cs': controller('Comments', 'Create.Model'),
      'Blog/Features/Users/Create.cs': [
        'namespace Blog.Features.Users;',
        'public class Create',
        '{',
        '    public record UserData(string? Username, string? Email, string? Password);',
        '    public record Command(UserData User) : IRequest<Envelope>;',
        '}',
      ].join('\n'),
      'Blog/Features/Users/UsersController.cs': controller('Users', 'Create.Command'),
    });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route} ${e.bodyFields.join(',')}`).sort()).toEqual([
      'POST /articles Article',
      'POST /comments Body,ReplyTo',
      'POST /users User',
    ]);
  });

  it('keeps a nested type\'s properties out of the outer class and registers nested types only by their qualified names', () => {
    const text = [
      'namespace Shop;',
      'public class Refund',
      '{',
      '    public class Request { public string Reason { get; set; } = ""; public decimal Amount { get; init; } }',
      '    public record Command(string OrderId, Dictionary<string, string> Meta, string Currency = "eur");',
      '}',
    ].join('\n');
    const { shapes } = scanDotnet('Refund.cs', text);
    expect(shapes.get('Refund')).toBeUndefined();
    expect(shapes.get('Refund.Request')).toEqual(['Reason', 'Amount']);
    expect(shapes.get('Shop.Refund.Command')).toEqual(['OrderId', 'Meta', 'Currency']);
    expect(shapes.has('Command')).toBe(false);
  });
});

describe('ASP.NET minimal-API route groups (D11)', () => {
  it('applies MapGroup prefixes: a variable, a group of a group, a .WithTags(...) chain and a group built inside an extension method', () => {
    const extension = [
      'namespace TodoApp;',
      'public static class TodoEndpoints',
      '{',
      '    public static RouteGroupBuilder MapTodoEndpoints(this IEndpointRouteBuilder routes)',
      '    {',
      '        var group = routes.MapGroup("/todos");',
      '        group.WithTags("Todos");',
      '        group.MapPost("/", (TodoItem item) => Results.Ok());',
      '        var item = group.MapGroup("/{id}");',
      '        item.MapPut("", (int id, TodoItem todo) => Results.Ok());',
      '        item.MapDelete("/", (int id) => Results.Ok());',
      '        return group;',
      '    }',
      '',
      '    // Another method\'s `group` is a parameter here, not the one above.',
      '    public static void MapArchive(RouteGroupBuilder group) => group.MapPost("/archive", () => Results.Ok());',
      '}',
    ].join('\n');
    expect(rows(scanDotnet('TodoEndpoints.cs', extension).findings.endpoints).map((r) => r.replace(/ \[.*\]$/, ''))).toEqual([
      'POST /todos', 'PUT /todos/{id}', 'DELETE /todos/{id}', 'POST /archive',
    ]);
    const program = [
      'var app = builder.Build();',
      'app.MapTodoEndpoints();',
      'var auth = app.MapGroup("/auth").WithTags("Auth").RequireAuthorization(p => p.RequireAssertion(_ => true));',
      'auth.MapPost("register", (UserInfo info) => Results.Ok());',
      'app.MapGroup("/admin").WithTags("Admin").MapDelete("/cache", () => Results.Ok());',
      'app.MapPost("plain", (UserInfo info) => Results.Ok());',
    ].join('\n');
    expect(rows(scanDotnet('Program.cs', program).findings.endpoints).map((r) => r.replace(/ \[.*\]$/, ''))).toEqual([
      'POST /auth/register', 'DELETE /admin/cache', 'POST plain',
    ]);
  });
});

describe('ASP.NET minimal-API handlers (D12)', () => {
  it('reads lambdas with an explicit return type, and spans the body of one whose { is on the next line', () => {
    const text = [
      'var todos = app.MapGroup("/todos");', // 1
      'todos.MapPost("/", async Task<Created<TodoItem>> (TodoDbContext db, TodoItem todo) =>', // 2
      '{',
      '    db.Todos.Add(todo);',
      '    await db.SaveChangesAsync();',
      '    return TypedResults.Created($"/todos/{todo.Id}", todo);',
      '});', // 7
      'todos.MapPut("/{id}", async Task<Results<Ok, NotFound, BadRequest>> (int id, TodoItem todo, TodoDbContext db)', // 8
      '    =>',
      '    {',
      '        await db.SaveChangesAsync();',
      '        return TypedResults.Ok();',
      '    });', // 13
      'todos.MapDelete("/{id}", Results<Ok, NotFound> (int id, TodoDbContext db) => TypedResults.Ok());', // 14
    ].join('\n');
    const endpoints = scanDotnet('Program.cs', text).findings.endpoints;
    expect(rows(endpoints)).toEqual(['POST /todos [2-7]', 'PUT /todos/{id} [8-13]', 'DELETE /todos/{id} [14-14]']);
    expect(endpoints.map((e) => e.bodyType)).toEqual(['TodoItem', 'TodoItem', undefined]);
  });

  it('takes the body from [FromBody] or the one complex parameter left once services, route values and bound-elsewhere parameters are set aside', () => {
    const text = [
      'builder.Services.AddScoped<CurrentUser>();',
      'builder.Services.AddHttpClient<AuthClient>();',
      'var app = builder.Build();',
      // Registered in this file, a DbContext, an I*-interface, a *Service, a logger and a request-scoped type: none is the body.
      'app.MapPost("/a/{orderId}", (CurrentUser user, ShopDb db, IClock clock, BillingService billing, ILogger<Program> log, HttpContext http, ClaimsPrincipal who, CancellationToken ct, Order orderId, PayRequest pay) => Results.Ok());',
      // [FromServices], [FromQuery] and [FromHeader] are bound elsewhere; [FromBody] wins over position.
      'app.MapPost("/b", ([FromServices] Ledger ledger, [FromQuery] Filter filter, [FromHeader(Name = "X-Key")] KeyHeader key, [FromBody] Transfer transfer, AuthClient client) => Results.Ok());',
      'app.MapPost("/c", ([FromBody] Transfer transfer, Extra extra) => Results.Ok());',
      'app.MapPost("/d", (string name, int count, Guid id, HttpRequest request) => Results.Ok());',
      'class ShopDb(DbContextOptions<ShopDb> options) : DbContext(options) { }',
    ].join('\n');
    expect(scanDotnet('Program.cs', text).findings.endpoints.map((e) => e.bodyType)).toEqual(['PayRequest', 'Transfer', 'Transfer', undefined]);
  });

  it('reads a handler passed as a method of the same file: its parameters and its span', () => {
    const text = [
      'app.MapGroup("/orders").MapPost("/", PlaceOrder);',
      '',
      'static async Task<IResult> PlaceOrder(NewOrder order, OrdersDbContext db)',
      '{',
      '    await db.SaveChangesAsync();',
      '    return Results.Ok();',
      '}',
    ].join('\n');
    const [endpoint] = scanDotnet('Program.cs', text).findings.endpoints;
    expect(endpoint).toMatchObject({ route: '/orders', handler: 'PlaceOrder', bodyType: 'NewOrder', span: { start: 3, end: 7 } });
  });
});

describe('ASP.NET controller attribute routes (D13)', () => {
  const controller = [
    'namespace Shop.Controllers;', // 1
    '[ApiController]',
    '[Route("api/[controller]/[action]")]',
    'public sealed class OrdersController(IOrderService orders) : ControllerBase',
    '{',
    '    [HttpPost]', // 6
    '    public async Task<IActionResult> PlaceAsync(PlaceOrder order, CancellationToken ct) => Ok(await orders.Place(order, ct));',
    '',
    '    [HttpDelete]', // 9
    '    [Route("{id}")]',
    '    public IActionResult Cancel(int id) => NoContent();',
    '',
    '    [Route("/legacy/orders/{id}")]', // 13
    '    [HttpPut]',
    '    public IActionResult Replace(int id, [FromBody] PlaceOrder order) => NoContent();',
    '',
    '    [HttpPatch("~/orders/{id}/note"), ActionName("Note")]', // 17
    '    public IActionResult AddNote(int id, OrderNote note)',
    '    {',
    '        return Ok();',
    '    }',
    '',
    '    [HttpPost("{id}/[action]")]', // 23
    '    [ActionName("Ship")]',
    '    public IActionResult ShipOrder(int id) => Ok();',
    '}',
  ].join('\n');

  it('fills [action] with the action name, appends a method-level [Route] and lets `/` or `~/` override', () => {
    const endpoints = scanDotnet('Controllers/OrdersController.cs', controller).findings.endpoints;
    expect(endpoints.map((e) => `${e.method} ${e.route} ${e.handler ?? ''}`)).toEqual([
      'POST /api/orders/place PlaceAsync',
      'DELETE /api/orders/cancel/{id} Cancel',
      'PUT /legacy/orders/{id} Replace',
      'PATCH /orders/{id}/note AddNote',
      'POST /api/orders/ship/{id}/ship ShipOrder',
    ]);
    // An expression-bodied action ends at its `;`, not at the next member's block.
    expect(endpoints.map((e) => e.span)).toEqual([
      { start: 7, end: 7 }, { start: 11, end: 11 }, { start: 15, end: 15 }, { start: 18, end: 21 }, { start: 25, end: 25 },
    ]);
    // [ApiController] binds a complex parameter from the body without [FromBody].
    expect(endpoints.map((e) => e.bodyType?.split('|').pop())).toEqual(['PlaceOrder', undefined, 'PlaceOrder', 'OrderNote', undefined]);
  });

  it('invents no `action` path parameter', async () => {
    const dir = project({ 'Shop/Shop.csproj': CSPROJ, 'Shop/Controllers/OrdersController.cs': controller });
    const inspection = await inspectCodebase(dir);
    expect(inspection.endpoints.flatMap((e) => e.pathParams ?? [])).not.toContain('action');
    expect(inspection.endpoints.find((e) => e.route === '/api/orders/cancel/{id}')?.pathParams).toEqual(['id']);
  });
});

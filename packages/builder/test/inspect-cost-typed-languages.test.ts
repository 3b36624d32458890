/**
 * Duplicate cost of Java/Kotlin, Go and C# handlers: evidence comes from the body, never from the
 * handler's own declaration (`createQuote(`); PascalCase persistence calls (GORM `db.Create`, EF
 * `SaveChangesAsync`) are writes while `Results.Created(` is not; a call on an injected service or a
 * MediatR `Send` is followed one level into the repository, or assumed to write when its code is absent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCosts, handlerBody } from '../src/inspect/cost.js';
import type { EndpointFinding } from '../src/inspect/types.js';

const root = mkdtempSync(join(tmpdir(), 'inspect-cost-typed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, lines: string[]) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), lines.join('\n'));
};
const endpoint = (file: string, start: number, end: number, handler: string | undefined, route: string): EndpointFinding => ({
  method: 'POST', route, framework: 'other', location: `${file}:${start}`, ...(handler ? { handler } : {}), bodyFields: [], webhook: false, span: { start, end },
});

// Java: a one-line handler named for a write, a multi-line signature, and delegation to the repository's own service.
write('src/main/java/shop/QuoteController.java', [
  'class QuoteController {',
  '  private final PriceCalculator calculator;',
  '  private final OrderService orderService;',
  '  private final PaymentsClient payments;',
  '  @PostMapping("/prices") public Price createQuote(@RequestBody Q q) { return calculator.price(q); }',
  '  @PostMapping("/articles")',
  '  public ResponseEntity createArticle(',
  '      @Valid @RequestBody NewArticleParam param,',
  '      @AuthenticationPrincipal User user) {',
  '    // articleRepository.save(article) happens in the command service',
  '    return ResponseEntity.ok(param);',
  '  }',
  '  public ModelAndView post(Order order) {',
  '    order = orderService.order(order);',
  '    return new ModelAndView("success");',
  '  }',
  '  public ModelAndView addLine(Order order) {',
  '    order.addLine(0, order.firstItem());',
  '    return new ModelAndView("orderForm");',
  '  }',
  '  public void capture(String id) {',
  '    payments.capture(id);',
  '  }',
  '}',
]);
write('src/main/java/shop/PriceCalculator.java', ['class PriceCalculator {', '  public Price price(Q q) {', '    return new Price(q.amount() * 2);', '  }', '}']);
write('src/main/java/shop/OrderService.java', [
  'public interface OrderService {',
  '  Order order(Order order);',
  '}',
]);
write('src/main/java/shop/OrderServiceImpl.java', [
  'class OrderServiceImpl implements OrderService {',
  '  public Order order(Order order) {',
  '    Order result = orderRepository.save(order);',
  '    fireOrderCreated(order);',
  '    return result;',
  '  }',
  '  private void fireOrderCreated(Order order) {',
  '    kafkaTemplate.send("order", order);',
  '  }',
  '}',
]);
write('src/main/java/shop/Order.java', ['public class Order {', '  private List<OrderLine> lines = new ArrayList<>();', '  public void addLine(int count, Item item) {', '    lines.add(new OrderLine(count, item));', '  }', '}']);

// Go: GORM calls in PascalCase, a handler that only binds, and a service on the handler's struct.
write('orders/handler.go', [
  'package orders',
  '',
  'func (h *Handler) CreateOrder(c *gin.Context) {',
  '\tvar req orderRequest',
  '\tc.ShouldBindJSON(&req)',
  '\torder, err := h.svc.PlaceOrder(c, req)',
  '\tc.JSON(http.StatusCreated, order)',
  '}',
  '',
  'func CreateTag(c *gin.Context) {',
  '\tdb.Create(&Tag{Name: c.Param("name")})',
  '}',
  '',
  'func RenameTag(c *gin.Context) {',
  '\ttx.Model(&tag).Update("name", c.Param("name"))',
  '}',
  '',
  'func (h *Handler) CancelOrder(c *gin.Context) {',
  '\th.billing.CancelInvoice(c.Param("id"))',
  '}',
  '',
  'func PreviewOrder(c *gin.Context) {',
  '\tc.JSON(http.StatusOK, gin.H{"ok": true})',
  '}',
]);
write('orders/service.go', [
  'package orders',
  '',
  'type Handler struct {',
  '\tsvc *OrderService',
  '\tbilling billing.Client',
  '}',
  '',
  'func (s *OrderService) PlaceOrder(ctx context.Context, req orderRequest) (*Order, error) {',
  '\to := &Order{Total: req.Total}',
  '\treturn o, s.db.Save(o).Error',
  '}',
]);

// C#: EF calls, results that are no write, a service behind an interface, MediatR handlers.
write('Api/OrdersController.cs', [
  'public class OrdersController : ControllerBase',
  '{',
  '    private readonly IOrderService _service;',
  '    private readonly IPaymentsGateway _payments;',
  '    private readonly AppDbContext _db;',
  '    [HttpPost]',
  '    public async Task<IActionResult> Place([FromBody] PlaceOrder body)',
  '    {',
  '        var order = await _service.PlaceAsync(body);',
  '        return CreatedAtAction(nameof(Place), new { id = order.Id }, order);',
  '    }',
  '    [HttpPost("quick")]',
  '    public IActionResult CreateQuick([FromBody] Order order)',
  '    {',
  '        _db.Orders.Add(order);',
  '        return Results.Created($"/orders/{order.Id}", order);',
  '    }',
  '    [HttpPost("check")]',
  '    public IActionResult UpdateCheck([FromBody] Order order)',
  '    {',
  '        var problems = new List<string>();',
  '        problems.Add("none");',
  '        ModelState.AddModelError("x", "y");',
  '        Response.Headers.Add("X-Checked", "1");',
  '        return TypedResults.Ok(problems);',
  '    }',
  '    [HttpPost("capture")]',
  '    public Task Capture(string id) => _payments.CaptureAsync(id);',
  '}',
]);
write('Api/IOrderService.cs', ['public interface IOrderService', '{', '    Task<Order> PlaceAsync(PlaceOrder body);', '}']);
write('Api/OrderService.cs', [
  'public class OrderService(AppDbContext context) : IOrderService',
  '{',
  '    public async Task<Order> PlaceAsync(PlaceOrder body)',
  '    {',
  '        var order = new Order(body.Sku);',
  '        await context.Orders.AddAsync(order);',
  '        await context.SaveChangesAsync();',
  '        return order;',
  '    }',
  '}',
]);
write('Features/Articles/ArticlesController.cs', [
  'public class ArticlesController(IMediator mediator) : Controller',
  '{',
  '    [HttpPost]',
  '    public Task<ArticleEnvelope> Create(',
  '        [FromBody] Create.Command command,',
  '        CancellationToken cancellationToken',
  '    ) => mediator.Send(command, cancellationToken);',
  '',
  '    [HttpPut("{slug}")]',
  '    public Task<ArticleEnvelope> Edit(string slug, [FromBody] Edit.Model model, CancellationToken ct) =>',
  '        mediator.Send(new Edit.Command(model, slug), ct);',
  '',
  '    [HttpPost("{slug}/archive")]',
  '    public Task Archive(string slug) => mediator.Send(new Archive.Command(slug));',
  '}',
]);
write('Features/Articles/Create.cs', [
  'public class Create',
  '{',
  '    public record Command(ArticleData Article) : IRequest<ArticleEnvelope>;',
  '    public class Handler(ConduitContext context) : IRequestHandler<Command, ArticleEnvelope>',
  '    {',
  '        public async Task<ArticleEnvelope> Handle(Command message, CancellationToken cancellationToken)',
  '        {',
  '            var article = new Article(message.Article);',
  '            await context.Articles.AddAsync(article, cancellationToken);',
  '            await context.SaveChangesAsync(cancellationToken);',
  '            return new ArticleEnvelope(article);',
  '        }',
  '    }',
  '}',
]);
// Another feature's `Create.Command`: the handler nearest the controller is the one it sends to.
write('Features/Users/Create.cs', [
  'public class Create',
  '{',
  '    public class Handler : IRequestHandler<Command, UserEnvelope>',
  '    {',
  '        public async Task<UserEnvelope> Handle(Command message, CancellationToken cancellationToken)',
  '        {',
  '            await emailSender.SendEmailAsync(message.Email);',
  '            return new UserEnvelope();',
  '        }',
  '    }',
  '}',
]);
write('Features/Articles/Edit.cs', [
  'public class Edit',
  '{',
  '    public class Handler : IRequestHandler<Edit.Command, ArticleEnvelope>',
  '    {',
  '        public async Task<ArticleEnvelope> Handle(Command message, CancellationToken cancellationToken)',
  '        {',
  '            article.Title = message.Model.Title;',
  '            await _context.SaveChangesAsync(cancellationToken);',
  '            return new ArticleEnvelope(article);',
  '        }',
  '    }',
  '}',
]);

const java = 'src/main/java/shop/QuoteController.java';
const costs = (...endpoints: EndpointFinding[]) => assessCosts(endpoints, { root, paymentCalls: [] });

describe('duplicate cost in typed languages: the declaration is no evidence (D6)', () => {
  it("a one-line Java handler named createQuote is rated by its body, not by `createQuote(`", () => {
    const quote = endpoint(java, 5, 5, 'createQuote', '/prices');
    expect(costs(quote).get(quote)).toMatchObject({ level: 'none' });
  });

  it('a multi-line signature with annotated parameters is skipped; a commented-out save is no write', () => {
    const create = endpoint(java, 7, 12, 'createArticle', '/articles');
    expect(costs(create).get(create)).toMatchObject({ level: 'none' });
    expect(handlerBody(['  public ResponseEntity createArticle(', '      @Valid @RequestBody P p) {', '    return ok(p);', '  }'], 1, 4, 'A.java', 'createArticle'))
      .toMatchObject({ line: 2, text: '\n    return ok(p);\n  ' });
  });

  it("Go's `func (h *Handler) CreateOrder(` is no write of its own; a read-only handler stays none", () => {
    const preview = endpoint('orders/handler.go', 22, 24, 'PreviewOrder', '/orders/draft');
    expect(costs(preview).get(preview)).toMatchObject({ level: 'none' });
    expect(handlerBody(['func (h *Handler) CreateOrder(c *gin.Context) {', '\tc.JSON(200, nil)', '}'], 1, 3, 'h.go', 'CreateOrder').text).toBe('\n\tc.JSON(200, nil)\n');
  });

  it('a C# expression body ends at its `;`, not at the next method the span runs into', () => {
    expect(handlerBody(['    public Task Delete(string slug) =>', '        mediator.Send(new Delete.Command(slug));', '    [HttpPost]', '    public void Save() { repo.Save(x); }'], 1, 4, 'C.cs', 'Delete').text)
      .toBe('\n        mediator.Send(new Delete.Command(slug))');
  });
});

describe('duplicate cost in typed languages: PascalCase writes (D7)', () => {
  it('GORM `db.Create(&x)` and `tx.Model(&a).Update(…)` are writes', () => {
    const create = endpoint('orders/handler.go', 10, 12, 'CreateTag', '/tags');
    const rename = endpoint('orders/handler.go', 14, 16, 'RenameTag', '/tags/rename');
    const result = costs(create, rename);
    expect(result.get(create)).toMatchObject({ level: 'write', evidence: ['writes: `.Create(` (orders/handler.go:11)'] });
    expect(result.get(rename)).toMatchObject({ level: 'write', evidence: ['writes: `.Update(` (orders/handler.go:15)'] });
  });

  it('EF `_db.Orders.Add(x)` is a write; `Results.Created(` is not the evidence', () => {
    const quick = endpoint('Api/OrdersController.cs', 13, 17, 'CreateQuick', '/orders/quick');
    expect(costs(quick).get(quick)).toMatchObject({ level: 'write', evidence: ['writes: `_db.Orders.Add(` (Api/OrdersController.cs:15)'] });
  });

  it('`Add` on a local list, `AddModelError`, response headers and `TypedResults.Ok` are no write', () => {
    const check = endpoint('Api/OrdersController.cs', 19, 26, 'UpdateCheck', '/orders/tidy');
    expect(costs(check).get(check)).toMatchObject({ level: 'none' });
  });
});

describe('duplicate cost in typed languages: the service a handler delegates to (D8)', () => {
  it("Spring: `orderService.order(order)` reaches the implementation's save, and the Kafka send of its private helper", () => {
    const post = endpoint(java, 13, 16, 'post', '/orders');
    expect(costs(post).get(post)).toMatchObject({ level: 'external', evidence: ['sends or calls out through orderService.order(): `kafkaTemplate.send(` (src/main/java/shop/OrderServiceImpl.java:8)'] });
  });

  it("a method named for a write whose own code writes nothing (`order.addLine(` on the entity) is none", () => {
    const addLine = endpoint(java, 17, 20, 'addLine', '/orders/line');
    expect(costs(addLine).get(addLine)).toMatchObject({ level: 'none' });
  });

  it("Go: `h.svc.PlaceOrder(…)` reaches the service method's GORM save", () => {
    const create = endpoint('orders/handler.go', 3, 8, 'CreateOrder', '/orders');
    expect(costs(create).get(create)).toMatchObject({ level: 'write', evidence: ['writes through h.svc.PlaceOrder(): `.Save(` (orders/service.go:10)'] });
  });

  it('C#: `_service.PlaceAsync(…)` reaches the class implementing IOrderService', () => {
    const place = endpoint('Api/OrdersController.cs', 7, 11, 'Place', '/orders');
    expect(costs(place).get(place)).toMatchObject({ level: 'write', evidence: ['writes through _service.PlaceAsync(): `.SaveChangesAsync(` (Api/OrderService.cs:7)'] });
  });

  it('an injected service whose code is not in the repository is assumed to write, and says so', () => {
    const capture = endpoint(java, 21, 23, 'capture', '/payments/capture');
    const cancel = endpoint('orders/handler.go', 18, 20, 'CancelOrder', '/orders/cancel');
    const captureCs = endpoint('Api/OrdersController.cs', 28, 28, 'Capture', '/capture');
    const result = costs(capture, cancel, captureCs);
    expect(result.get(capture)).toMatchObject({ level: 'write', evidence: ['calls payments.capture() on an injected PaymentsClient whose code is not in the repository; assumed to write (src/main/java/shop/QuoteController.java:22)'] });
    expect(result.get(cancel)).toMatchObject({ level: 'write', evidence: ['calls h.billing.CancelInvoice() on a dependency of the handler whose code is not in the repository; assumed to write (orders/handler.go:19)'] });
    expect(result.get(captureCs)).toMatchObject({ level: 'write', evidence: [expect.stringContaining('on an injected IPaymentsGateway whose code is not in the repository; assumed to write')] });
  });
});

describe('duplicate cost in typed languages: MediatR commands (D10)', () => {
  const file = 'Features/Articles/ArticlesController.cs';

  it("`mediator.Send(command)` with a `[FromBody] Create.Command` reaches that feature's IRequestHandler.Handle", () => {
    const create = endpoint(file, 4, 7, 'Create', '/articles');
    expect(costs(create).get(create)).toMatchObject({ level: 'write', evidence: ['writes through Create.Command handler Handle(): `.SaveChangesAsync(` (Features/Articles/Create.cs:10)'] });
  });

  it('`mediator.Send(new Edit.Command(…))` reaches `IRequestHandler<Edit.Command, …>`', () => {
    const edit = endpoint(file, 10, 11, 'Edit', '/articles/{slug}');
    expect(costs(edit).get(edit)).toMatchObject({ level: 'write', evidence: ['writes through Edit.Command handler Handle(): `.SaveChangesAsync(` (Features/Articles/Edit.cs:8)'] });
  });

  it('a command whose handler is not in the repository is assumed to write', () => {
    const archive = endpoint(file, 14, 14, 'Archive', '/articles/{slug}/archive');
    expect(costs(archive).get(archive)).toMatchObject({ level: 'write', evidence: ['sends Archive.Command through mediator.Send(), whose handler was not found in the repository; assumed to write (Features/Articles/ArticlesController.cs:14)'] });
  });
});

// Corpus fixture: ASP.NET minimal API, one route written without a leading slash.
using Stripe;
using Stripe.Checkout;

var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();

app.MapPost("create-checkout-session", async (HttpRequest request) =>
{
    var options = new SessionCreateOptions { Mode = "payment" };
    var service = new SessionService();
    var session = await service.CreateAsync(options);
    return Results.Ok(session.Url);
});

app.MapPost("/refunds", async (RefundRequest body) =>
{
    var service = new RefundService();
    await service.CreateAsync(new RefundCreateOptions { PaymentIntent = body.PaymentIntentId }, new RequestOptions { IdempotencyKey = body.RefundId });
    return Results.Accepted();
});

app.Run();

public record RefundRequest(string PaymentIntentId, string RefundId);

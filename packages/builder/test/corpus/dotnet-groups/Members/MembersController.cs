using MediatR;
using Microsoft.AspNetCore.Mvc;

namespace Library.Members;

[ApiController]
[Route("api/[controller]/[action]")]
public class MembersController(IMediator mediator) : ControllerBase
{
    [HttpPost]
    public Task<MemberEnvelope> Enrol(
        [FromBody] Enrol.Command command,
        CancellationToken cancellationToken
    ) => mediator.Send(command, cancellationToken);

    [HttpDelete]
    [Route("{code}")]
    public Task Remove(string code, CancellationToken cancellationToken) =>
        mediator.Send(new Remove.Command(code), cancellationToken);

    // An absolute template: the controller's route does not apply.
    [HttpPut("/api/members/{code}/card")]
    public Task<MemberEnvelope> ReplaceCard(string code, [FromBody] ReplaceCard.Model model, CancellationToken cancellationToken) =>
        mediator.Send(new ReplaceCard.Command(code, model), cancellationToken);
}

public record MemberEnvelope(string Code, string Name);

using MediatR;

namespace Library.Events;

// Same nested name as Members' `Enrol.Command`, another namespace: never the members endpoint's body.
public class Enrol
{
    public record Command(int EventId, string Attendee) : IRequest;
}

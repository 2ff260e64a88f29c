import GatehouseAPI
import GatehouseCore
import Hummingbird

/// `POST /auth/apple/notifications`: Apple's server-to-server notifications (the URL registered in
/// Apple's developer console). Every request is answered `200 {"received": true}` — verified, forged,
/// stale, replayed, about an unknown user, or not even JSON — so the answer tells nothing, and Apple
/// (which retries anything but a 2xx) does not retry what we refused; the reason goes to the log.
struct AppleNotificationController {
    let notifications: AppleNotifications
    let body: RequestBodyReader

    /// Adds the route.
    /// - Parameter group: Where the route goes.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/auth/apple/notifications", use: receive)
    }

    @Sendable func receive(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let input = try? await body.decode(Operations.ReceiveAppleNotification.Input.Body.JsonPayload.self, from: request)
        await notifications.receive(payload: input?.payload, logger: context.logger)
        return try Components.Schemas.NotificationReceived(received: true).response()
    }
}

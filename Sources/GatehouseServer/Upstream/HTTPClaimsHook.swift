import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import NIOCore
import NIOHTTP1

/// The custom-claims hook over HTTP: posts the request to `GATEHOUSE_CLAIMS_HOOK_URL` signed as a
/// Standard Webhook (`webhook-id`, `webhook-timestamp`, `webhook-signature`), through the upstream
/// client (no redirects, capped body), within the hook's timeout; anything but a 2xx throws.
struct HTTPClaimsHook: ClaimsHook {
    let upstream: UpstreamHTTPClient
    let url: String
    /// The signing key: the bytes of `GATEHOUSE_CLAIMS_HOOK_SECRET` (``WebhookSignature`` signs as webhooks are signed).
    let signingKey: [UInt8]
    let clock: any TimeSource
    let random: any RandomSource

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    func send(_ body: [UInt8], timeout: Duration) async throws -> [UInt8] {
        let id = "msg_" + Base64URL.encode(random.bytes(16))
        let timestamp = clock.now().epochSeconds
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "webhook-id", value: id)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(name: "webhook-signature", value: WebhookSignature.sign(id: id, timestamp: timestamp, body: body, key: signingKey))
        request.body = .bytes(ByteBuffer(bytes: body))
        let (seconds, attoseconds) = timeout.components
        let response = try await upstream.send(request, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        guard (200..<300).contains(response.status) else { throw Refused(description: "the hook answered HTTP \(response.status)") }
        return response.body
    }
}

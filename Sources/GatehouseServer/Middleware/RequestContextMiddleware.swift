import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: keeps Hummingbird's request id (`hb.request.id` on the logger, so
/// every line of the request carries it) unless the caller sent a plausible `X-Request-Id`, works out the
/// client address for rate limits, answers with `X-Request-Id`, and logs one line per request.
struct RequestContextMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        // Hummingbird's request id (`hb.request.id`, on every log line), or the caller's when plausible.
        if let callerID = request.headers[.xRequestID].flatMap(Self.acceptableID) {
            context.logger[metadataKey: "hb.request.id"] = .string(callerID)
        }
        // Built once here: every later reader (the audit origin, the authenticator, the handlers) shares it.
        let requestID = context.id
        context.client = ClientInfo(
            address: Self.clientAddress(peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor], trusted: trustedProxies),
            userAgent: request.headers[.userAgent],
            requestID: requestID
        )
        let start = ContinuousClock.now
        var response: Response
        do {
            // The audit log's who and where, for every row the request's changes write.
            response = try await AuditOrigin.$current.withValue(AuditOrigin(actor: "user", client: context.client)) {
                try await next(request, context)
            }
        } catch {
            // ErrorMiddleware maps everything; this is only reached if it was bypassed.
            response = ContractFailures.from(error).contractResponse()
        }
        response.headers[.xRequestID] = requestID
        let elapsed = ContinuousClock.now - start
        context.logger.info(
            "request",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.route": .string(context.endpointPath ?? "unknown"),
                "http.status": .stringConvertible(response.status.code),
                "duration_ms": .string(
                    String(format: "%.2f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
                ),
            ]
        )
        return response
    }

    static func acceptableID(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            })
        else { return nil }
        return value
    }

    /// The TCP peer, unless it is a trusted proxy: then the nearest address in `X-Forwarded-For`
    /// that is not itself a trusted proxy.
    static func clientAddress(peer: String?, forwardedFor: String?, trusted: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trusted.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() where !trusted.contains(hop) { return hop }
        return peer
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

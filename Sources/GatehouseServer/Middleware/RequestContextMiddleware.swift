import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: gives every request an id (the caller's `X-Request-Id` when it is a
/// plausible one), puts it on the logger so every line of the request carries it, works out the
/// client address for rate limits, answers with `X-Request-Id`, and logs one line per request.
struct RequestContextMiddleware: RouterMiddleware {
    typealias Context = GatehouseRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let requestID = request.headers[.xRequestID].flatMap(Self.acceptableID) ?? Self.newID()
        context.requestID = requestID
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(requestID)
        context.clientAddress = Self.clientAddress(peer: context.peerAddress, forwardedFor: request.headers[.xForwardedFor], trusted: trustedProxies)
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ErrorMiddleware maps everything; this is only reached if it was bypassed.
            let mapped = ErrorMapping.gatehouseError(from: error)
            response = ErrorMapping.response(for: mapped, requestID: requestID)
        }
        response.headers[.xRequestID] = requestID
        let elapsed = ContinuousClock.now - start
        context.logger.info(
            "request",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.route": .string(context.endpointPath ?? "unknown"),
                "http.status": .stringConvertible(response.status.code),
                "duration_ms": .string(String(format: "%.2f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)),
            ])
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

    /// 64 random bits in hex, from the buffered CSPRNG (not a system call per request).
    static func newID() -> String {
        let value = SystemRandomSource().bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return String(value, radix: 16, uppercase: false)
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

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One SigV4-signed HTTP exchange with an AWS endpoint (SES's REST API, SNS's query API): builds the
/// URL from the endpoint and a path, signs, sends, and collects the answer whatever its status. The
/// transports turn a ``Failure`` and an error answer into their own errors.
struct AWSSignedRequest: Sendable {
    var method: String
    /// The service's base URL (`https://sns.us-east-1.amazonaws.com`, or an emulator's).
    var endpoint: String
    /// Appended to the endpoint's own path; empty for the endpoint itself (then `/`).
    var path: String
    var contentType: String?
    var body: [UInt8]

    /// The answer: status, headers and at most 1 MiB of body.
    struct Reply: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    /// Why no answer came; `detail` is safe to log (no credentials, no body).
    enum Failure: Error, Sendable {
        /// The endpoint is not a URL with a scheme and a host.
        case badEndpoint
        /// The host did not answer within the timeout.
        case timedOut(host: String)
        /// The host could not be reached, or the connection dropped.
        case unreachable(host: String, detail: String)
    }

    /// Signs and sends the request.
    /// - Parameters:
    ///   - service: The SigV4 service name (`ses`, `sns`).
    ///   - region: The region.
    ///   - credentials: The credentials to sign with.
    ///   - timeout: The whole exchange's deadline.
    ///   - client: The HTTP client.
    /// - Returns: The answer.
    /// - Throws: ``Failure``.
    func send(
        service: String,
        region: String,
        credentials: SigV4Signer.Credentials,
        timeout: TimeAmount,
        client: HTTPClient
    ) async throws(Failure) -> Reply {
        guard let url = URL(string: endpoint), let scheme = url.scheme, let host = url.host else { throw .badEndpoint }
        let hostHeader = url.port.map { "\(host):\($0)" } ?? host
        let prefix = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        let fullPath = (prefix + path).isEmpty ? "/" : prefix + path
        var headers: [(String, String)] = [("Host", hostHeader)]
        if let contentType { headers.append(("Content-Type", contentType)) }
        let signer = SigV4Signer(credentials: credentials, region: region, service: service)
        headers += signer.signatureHeaders(for: SigV4Signer.Request(method: method, path: fullPath, headers: headers, body: body), date: Date())
        var request = HTTPClientRequest(url: "\(scheme)://\(hostHeader)\(fullPath)")
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers where name != "Host" { request.headers.add(name: name, value: value) }
        request.headers.replaceOrAdd(name: "Host", value: hostHeader)
        if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return Reply(status: Int(response.status.code), headers: response.headers, body: bytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw .timedOut(host: hostHeader)
        } catch {
            throw .unreachable(host: hostHeader, detail: Self.oneLine(String(describing: error)))
        }
    }

    /// `text` on one line: control characters (CR, LF, …) become spaces, so a log line stays one line.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            .trimmingCharacters(in: .whitespaces)
    }
}

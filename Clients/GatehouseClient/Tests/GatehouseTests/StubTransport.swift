import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers from a closure and records every request.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    typealias Handler = @Sendable (URLRequest) async throws -> (Int, [String: String], Data)
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    var requests: [URLRequest] { lock.withLock { recorded } }
    func requests(to path: String) -> [URLRequest] { requests.filter { $0.url?.path == path } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { recorded.append(request) }
        let (status, headers, body) = try await handler(request)
        return (body, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
    }

    static func json(_ object: Any) -> Data { try! JSONSerialization.data(withJSONObject: object) }

    static func tokens(_ tag: String, expiresIn: Int = 3600, isNewUser: Bool? = nil) -> Data {
        var object: [String: Any] = [
            "id_token": "id-\(tag)", "access_token": "access-\(tag)", "refresh_token": "refresh-\(tag)", "expires_in": expiresIn,
            "token_type": "Bearer",
        ]
        if let isNewUser { object["is_new_user"] = isNewUser }
        return json(object)
    }

    static func error(_ code: String, _ message: String = "nope") -> Data { json(["error": ["code": code, "message": message]]) }
}

extension URLRequest {
    var jsonBody: [String: Any] { (httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]) ?? [:] }
}

/// A clock tests move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

let base = URL(string: "https://auth.example.com")!

/// Expects `body` to throw a ``GatehouseError`` with the contract's `code`; records an issue when it
/// succeeds or throws anything else.
func expectError(_ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
    await expectError(sourceLocation: sourceLocation, { $0.code == code }, body)
}

/// Expects `body` to throw a ``GatehouseError`` that `matches`.
func expectError(sourceLocation: SourceLocation = #_sourceLocation, _ matches: (GatehouseError) -> Bool, _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("expected an error, the call succeeded", sourceLocation: sourceLocation)
    } catch let error as GatehouseError {
        #expect(matches(error), "unexpected \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

func isTransport(_ error: GatehouseError) -> Bool {
    if case .transport = error { return true }
    return false
}

func isStorage(_ error: GatehouseError) -> Bool {
    if case .storage = error { return true }
    return false
}

/// An unsigned JWT with `claims` (the SDK reads ID token claims without verifying them).
func fakeIDToken(_ claims: [String: Any]) -> String {
    let encode: (Data) -> String = {
        $0.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    return "\(encode(Data(#"{"alg":"none"}"#.utf8))).\(encode(StubTransport.json(claims))).sig"
}

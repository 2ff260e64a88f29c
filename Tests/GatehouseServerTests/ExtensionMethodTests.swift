import Foundation
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// A method that is not one of HTTP's standard ones (`QUERY`, `PROPFIND`) on a served path is a 405
/// with `Allow`, as a standard method the path does not serve is; schemathesis found 25 paths that
/// answered such methods with 404. A path nobody serves stays 404.
@Suite("Routes: extension methods get 405 on served paths", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ExtensionMethodTests {
    @Test func extensionMethodsAre405WithAllowOnServedPathsAnd404Elsewhere() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            let cases: [(String, String, String?)] = [
                ("QUERY", "/health", "GET"), ("PROPFIND", "/auth/signin", "POST"), ("QUERY", "/me", "GET, PATCH, DELETE"),
                ("QUERY", "/assets/app.js", "GET"),
            ]
            for (method, path, allow) in cases {
                let reply = try await client.send(try #require(HTTPRequest.Method(method)), path)
                #expect(reply.status == .methodNotAllowed && reply.errorCode == "method_not_allowed", "\(method) \(path): \(reply.status)")
                #expect(reply.headers[.allow] == allow, "\(method) \(path): \(reply.headers[.allow] ?? "no Allow")")
            }
            let unknown = try await client.send(try #require(HTTPRequest.Method("QUERY")), "/no/such/path")
            #expect(unknown.status == .notFound && unknown.errorCode == "not_found")
            #expect(try await client.send(.get, "/health").status == .ok, "the standard methods are untouched")
        }
    }
}

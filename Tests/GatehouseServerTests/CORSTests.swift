import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Cross-origin calls to the JSON API (`GATEHOUSE_CORS_ORIGINS`): the seeds' Next.js app calls
/// `/auth/google` and `/auth/apple` from the browser on its own origin.
@Suite("CORS: the listed origins, the JSON API, nothing else", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct CORSTests {
    static let app = "https://app.example.com"

    static func make(_ origins: [String] = [app]) async throws -> TestApp {
        try await TestApp.make { c in
            c.corsOrigins = origins
            c.cognitoAPI = true
        }
    }

    static func preflight(
        _ client: any TestClientProtocol,
        _ path: String,
        method: String,
        origin: String = app,
        headers: String? = nil
    )
        async throws -> Reply
    {
        var fields: HTTPFields = [.origin: origin, .accessControlRequestMethod: method]
        if let headers { fields[.accessControlRequestHeaders] = headers }
        return try await client.send(.options, path, headers: fields)
    }

    @Test func aListedOriginsPreflightGetsTheRoutesMethodsAndHeaders() async throws {
        try await Self.make().router { client in
            for (path, method, methods) in [
                ("/auth/google", "POST", "POST"), ("/me", "GET", "GET, PATCH, DELETE"), ("/me", "DELETE", nil), ("/auth/signin", "POST", "POST"),
                ("/", "POST", "POST"), ("/.well-known/jwks.json", "GET", "GET"),
            ] {
                let reply = try await Self.preflight(client, path, method: method, headers: "content-type, authorization, x-amz-target")
                #expect(reply.status == .noContent, "\(method) \(path)")
                #expect(reply.headers[.accessControlAllowOrigin] == Self.app)
                #expect(reply.headers[.accessControlAllowCredentials] == nil, "credentials are never allowed")
                if let methods { #expect(reply.headers[.accessControlAllowMethods] == methods, "\(path)") }
                #expect(reply.headers[.accessControlAllowMethods]?.contains(method) == true)
                #expect(reply.headers[.accessControlMaxAge] == "600")
                #expect(reply.headers[values: .vary].joined(separator: ",").contains("Origin"))
            }
        }
    }

    @Test func otherOriginsMethodsHeadersAndPathsGetNoCORS() async throws {
        try await Self.make().router { client in
            for reply in [
                try await Self.preflight(client, "/auth/google", method: "POST", origin: "https://evil.example"),
                try await Self.preflight(client, "/auth/google", method: "POST", origin: "https://app.example.com.evil.example"),
                try await Self.preflight(client, "/auth/google", method: "DELETE"),  // not a method the route serves
                try await Self.preflight(client, "/auth/google", method: "POST", headers: "x-custom-secret"),
                try await Self.preflight(client, "/", method: "GET"),  // the web page
                try await Self.preflight(client, "/metrics", method: "GET"),
                try await Self.preflight(client, "/auth/apple/authorize", method: "GET"),
            ] {
                #expect(reply.status == .forbidden && reply.headers[.accessControlAllowOrigin] == nil)
            }
            // An actual request from another origin is answered, but without the header the browser needs.
            let foreign = try await client.send(.get, "/.well-known/jwks.json", headers: [.origin: "https://evil.example"])
            #expect(foreign.status == .ok && foreign.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test func answersToAListedOriginCarryTheHeaderErrorsIncluded() async throws {
        let app = try await Self.make()
        try await app.router { client in
            let refused = try await client.send(.post, "/auth/google", json: ["id_token": "x"], headers: [.origin: Self.app])
            #expect(refused.status.code >= 400 && refused.headers[.accessControlAllowOrigin] == Self.app, "a page must be able to read the error")
            #expect(refused.headers[.accessControlExposeHeaders]?.contains("Retry-After") == true)
            let me = try await client.send(.get, "/me", headers: [.origin: Self.app])
            #expect(me.status == .unauthorized && me.headers[.accessControlAllowOrigin] == Self.app)
            let page = try await client.send(.get, "/", headers: [.origin: Self.app])
            #expect(page.headers[.accessControlAllowOrigin] == nil, "the web page is not an API answer")
        }
    }

    @Test func withoutOriginsNothingChanges() async throws {
        try await Self.make([]).router { client in
            let reply = try await Self.preflight(client, "/auth/google", method: "POST")
            #expect(reply.status == .methodNotAllowed && reply.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test(arguments: ["*", "null", "https://app.example.com/", "https://app.example.com/path", "ftp://app.example.com", "app.example.com"])
    func originsMustBeExact(_ origin: String) {
        #expect(throws: ConfigurationError.self) { try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_CORS_ORIGINS": origin]) }
    }

    @Test func originsAreReadAsBrowsersSendThem() throws {
        let c = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_CORS_ORIGINS": "https://App.Example.com, http://localhost:3000"])
        #expect(c.corsOrigins == ["https://app.example.com", "http://localhost:3000"])
    }
}

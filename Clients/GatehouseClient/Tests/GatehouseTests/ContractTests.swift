import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK's wire models against the server's OpenAPI document, so that renaming a documented field on
/// either side fails here: what the client actually sends (captured by ``StubTransport``) must use only
/// documented request fields and every required one; what it decodes must accept a body built from the
/// document's schema, with only the required fields too, and must read every documented field (changing
/// any one of them must change what the client returns).
@Suite("Contract: the SDK's requests and models match openapi.yaml")
struct ContractTests {
    let document: OpenAPIDocument

    init() throws {
        document = try OpenAPIDocument.load()
    }

    // MARK: Requests

    /// Every SDK call that talks to the server, with every optional argument given, so that every field the
    /// client can send is sent.
    static let calls: [(name: String, call: @Sendable (GatehouseClient) async throws -> Void)] = [
        ("signUp", { _ = try await $0.signUp(email: "a@example.com", password: "pw 123456", fullName: "Ann") }),
        ("confirmSignUp", { try await $0.confirmSignUp(email: "a@example.com", code: "123456") }),
        ("resendCode", { _ = try await $0.resendCode(email: "a@example.com") }),
        ("signIn", { _ = try await $0.signIn(email: "a@example.com", password: "pw 123456") }),
        ("forgotPassword", { _ = try await $0.forgotPassword(email: "a@example.com") }),
        ("resetPassword", { try await $0.resetPassword(email: "a@example.com", code: "123456", newPassword: "new 123456") }),
        ("changePassword", { try await $0.changePassword(current: "pw 123456", new: "new 123456") }),
        (
            "signInWithApple",
            {
                _ = try await $0.signInWithApple(
                    identityToken: "apple-jwt",
                    authorizationCode: "c0de",
                    rawNonce: "n0nce",
                    email: "a@example.com",
                    fullName: "Ann"
                )
            }
        ),
        ("signInWithGoogle", { _ = try await $0.signInWithGoogle(idToken: "google-jwt", rawNonce: "n0nce", fullName: "Ann") }),
        ("redeemHandoff", { _ = try await $0.redeemHandoff(code: "handoff", codeVerifier: PKCE().verifier) }),
        ("refresh", { _ = try await $0.refresh() }),
        ("signOut", { try await $0.signOut() }),
        ("signOutEverywhere", { try await $0.signOutEverywhere() }),
        ("profile", { _ = try await $0.profile() }),
        ("updateProfile(name)", { _ = try await $0.updateProfile(fullName: "Ann") }),
        ("updateProfile(nil)", { _ = try await $0.updateProfile(fullName: nil) }),
        ("deleteAccount", { try await $0.deleteAccount() }),
    ]

    @Test func everyRequestBodyUsesDocumentedFieldsAndSendsTheRequiredOnes() async throws {
        let covered = await checkRequests(Self.calls)
        // The list above must keep reaching every operation the SDK wraps.
        let expected: Set<String> = [
            "POST /auth/signup", "POST /auth/confirm", "POST /auth/resend-code", "POST /auth/signin", "POST /auth/password/forgot",
            "POST /auth/password/reset", "POST /auth/password/change", "POST /auth/apple", "POST /auth/google", "POST /auth/handoff",
            "POST /auth/refresh", "POST /auth/signout", "POST /auth/signout/all", "GET /me", "PATCH /me", "DELETE /me",
        ]
        #expect(covered == expected)
    }

    /// Runs each call against answers built from the document and checks every request it sends.
    ///
    /// - Parameter calls: Named SDK calls.
    /// - Returns: The operations reached, as `METHOD /path`.
    func checkRequests(_ calls: [(name: String, call: @Sendable (GatehouseClient) async throws -> Void)]) async -> Set<String> {
        var covered = Set<String>()
        for (name, call) in calls {
            let transport = StubTransport { [document] request in try Self.documentedAnswer(document, to: request) }
            do {
                try await call(signedInClient(transport))
            } catch {
                Issue.record("\(name) failed against answers built from the document: \(error)")
            }
            #expect(!transport.requests.isEmpty, "\(name) sent nothing")
            for request in transport.requests {
                let method = request.httpMethod ?? "GET"
                let path = request.url?.path ?? ""
                covered.insert("\(method) \(path)")
                check(request, from: name)
            }
        }
        return covered
    }

    @Test func theAppleAuthorizeURLUsesDocumentedQueryParameters() throws {
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: StubTransport { _ in (500, [:], Data()) })
        let url = client.appleAuthorizeURL(pkce: PKCE(), nonce: Nonce())
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let documented = document.queryParameters("GET", components.path)
        #expect(document.operation("GET", components.path) != nil, "GET \(components.path) is not in openapi.yaml")
        let sent = Set((components.queryItems ?? []).map(\.name))
        #expect(sent.subtracting(documented.keys).isEmpty, "undocumented query parameters: \(sent.subtracting(documented.keys).sorted())")
        let required = Set(documented.filter(\.value).keys)
        #expect(required.isSubset(of: sent), "required query parameters not sent: \(required.subtracting(sent).sorted())")
    }

    /// Checks one captured request against its operation in the document.
    func check(_ request: URLRequest, from name: String) {
        let method = request.httpMethod ?? "GET"
        let path = request.url?.path ?? ""
        guard document.operation(method, path) != nil else {
            Issue.record("\(name) sends \(method) \(path), which openapi.yaml does not document")
            return
        }
        let documented = document.requestBody(method, path)
        guard let body = request.httpBody else {
            #expect(documented?.required != true, "\(name) sends no body; \(method) \(path) requires one")
            return
        }
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        guard let documented else {
            Issue.record("\(name) sends a JSON body; \(method) \(path) documents none")
            return
        }
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let sent = Set(object?.keys.map { $0 } ?? [])
        let properties = Set((documented.schema["properties"] as? [String: Any] ?? [:]).keys)
        let required = Set(documented.schema["required"] as? [String] ?? [])
        #expect(
            sent.subtracting(properties).isEmpty,
            "\(name) sends \(sent.subtracting(properties).sorted()), not among \(method) \(path)'s documented fields \(properties.sorted())"
        )
        #expect(required.isSubset(of: sent), "\(name) leaves out \(method) \(path)'s required \(required.subtracting(sent).sorted())")
    }

    /// The documented success answer of the operation `request` is for, with a body built from its schema.
    static func documentedAnswer(_ document: OpenAPIDocument, to request: URLRequest) throws -> (Int, [String: String], Data) {
        let method = request.httpMethod ?? "GET"
        let path = request.url?.path ?? ""
        guard let status = document.successStatus(method, path) else { return (404, [:], StubTransport.error("not_found")) }
        guard let schema = document.responseBody(method, path, status: status) else { return (status, [:], Data()) }
        return (status, [:], try SchemaExample(document: document).data(schema, .base))
    }

    // MARK: Responses

    /// A model the SDK decodes, reached through the client method that returns it.
    struct ResponseProbe: Sendable {
        let method: String
        let path: String
        let status: Int
        /// Documented top-level fields the SDK deliberately does not read (each must still be documented).
        var unread: Set<String> = []
        let call: @Sendable (GatehouseClient) async throws -> any Sendable
    }

    static let tokensUnreadBySession: Set<String> = ["token_type", "is_new_user"]

    static let probes: [ResponseProbe] = [
        ResponseProbe(method: "POST", path: "/auth/signup", status: 201) {
            try await $0.signUp(email: "a@example.com", password: "pw 123456")
        },
        ResponseProbe(method: "POST", path: "/auth/resend-code", status: 200) { try await $0.resendCode(email: "a@example.com") },
        ResponseProbe(method: "POST", path: "/auth/password/forgot", status: 200) { try await $0.forgotPassword(email: "a@example.com") },
        // A Session has no place for the constant token type, or for is_new_user (documented for social sign-in).
        ResponseProbe(method: "POST", path: "/auth/signin", status: 200, unread: ContractTests.tokensUnreadBySession) {
            try await $0.signIn(email: "a@example.com", password: "pw 123456")
        },
        ResponseProbe(method: "POST", path: "/auth/refresh", status: 200, unread: ContractTests.tokensUnreadBySession) { try await $0.refresh() },
        ResponseProbe(method: "POST", path: "/auth/google", status: 200, unread: ["token_type"]) {
            try await $0.signInWithGoogle(idToken: "google-jwt", rawNonce: nil)
        },
        ResponseProbe(method: "POST", path: "/auth/apple", status: 200, unread: ["token_type"]) {
            try await $0.signInWithApple(identityToken: "apple-jwt", authorizationCode: nil, rawNonce: nil)
        },
        ResponseProbe(method: "POST", path: "/auth/handoff", status: 200, unread: ["token_type"]) {
            try await $0.redeemHandoff(code: "handoff", codeVerifier: PKCE().verifier)
        },
        ResponseProbe(method: "GET", path: "/me", status: 200) { try await $0.profile() },
        ResponseProbe(method: "PATCH", path: "/me", status: 200) { try await $0.updateProfile(fullName: "Ann") },
        // The error body, read by ServerError.decode whatever the endpoint.
        ResponseProbe(method: "POST", path: "/auth/signin", status: 401) { client in
            try await thrown { try await client.signIn(email: "a@example.com", password: "wrong") }
        },
        ResponseProbe(method: "POST", path: "/auth/signup", status: 400) { client in
            try await thrown { try await client.signUp(email: "a@example.com", password: "short") }
        },
    ]

    @Test(arguments: ContractTests.probes.indices)
    func everyDocumentedResponseFieldIsRead(_ index: Int) async throws {
        try await checkReads(Self.probes[index])
    }

    /// Checks that the probe's call reads every documented field of its answer, copes with the optional ones
    /// left out, and accepts `null` where the document allows it.
    ///
    /// - Parameter probe: The answer and the call that reads it.
    /// - Throws: When the document has no JSON body for the answer, or the SDK cannot read one built from it.
    func checkReads(_ probe: ResponseProbe) async throws {
        let label = "\(probe.method) \(probe.path) \(probe.status)"
        let schema = try #require(document.responseBody(probe.method, probe.path, status: probe.status), "\(label) has no JSON body in openapi.yaml")
        let example = SchemaExample(document: document)
        let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
        let stale = probe.unread.subtracting(properties)
        #expect(stale.isEmpty, "\(label): fields said to be unread are not documented: \(stale.sorted())")

        let base = await outcome(probe, try example.data(schema, .base))
        try #require(!base.hasPrefix("threw"), "\(label): the SDK cannot read a body built from the document: \(base)")
        let minimal = await outcome(probe, try example.data(schema, .requiredOnly))
        #expect(!minimal.hasPrefix("threw"), "\(label): the SDK needs a field the document makes optional: \(minimal)")

        for leaf in example.leaves(schema) where !probe.unread.contains(leaf.path[0]) {
            let name = leaf.path.joined(separator: ".")
            let changed = await outcome(probe, try example.data(schema, .changed(leaf.path)))
            #expect(changed != base, "\(label): the SDK does not read the documented field \(name)")
            if leaf.nullable {
                let null = await outcome(probe, try example.data(schema, .null(leaf.path)))
                #expect(!null.hasPrefix("threw"), "\(label): the SDK refuses null in \(name), which the document allows: \(null)")
            }
        }
    }

    /// What the probe's call returns (or throws) when the server answers `body`, as a full dump of the value.
    func outcome(_ probe: ResponseProbe, _ body: Data) async -> String {
        let transport = StubTransport { _ in (probe.status, [:], body) }
        do {
            let value = try await probe.call(signedInClient(transport))
            var text = ""
            dump(value, to: &text)
            return text
        } catch {
            return "threw \(error)"
        }
    }

    /// A client with a stored, unexpired session and a fixed clock (so `expires_in` maps to one date).
    func signedInClient(_ transport: StubTransport) -> GatehouseClient {
        let clock = ManualClock()
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
        return GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(session), transport: transport, now: { clock.now })
    }
}

/// The ``GatehouseError`` `body` throws; a call that succeeds where an error was answered is itself an error.
private func thrown<T: Sendable>(_ body: () async throws -> T) async throws -> GatehouseError {
    do {
        _ = try await body()
    } catch let error as GatehouseError {
        return error
    }
    throw GatehouseError.invalidResponse("the call succeeded although the server answered an error")
}

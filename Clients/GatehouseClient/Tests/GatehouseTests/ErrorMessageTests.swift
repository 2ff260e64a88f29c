import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the SDK offers to show people is always its own words: a server's text meant for developers, a code this
/// SDK does not know, or a proxy's HTML page never reaches the screen, and the server's text stays in the logs.
@Suite("Error messages: words for people, the server's text for logs")
struct ErrorMessageTests {
    static let proxyPage = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"

    static func server() -> StubTransport {
        StubTransport { request in
            switch request.url!.path {
            case "/me": return (401, [:], StubTransport.error("unauthorized", "A valid access token is required."))
            case "/auth/refresh": return (200, [:], StubTransport.tokens("2"))
            case "/auth/resend-code": return (502, ["Content-Type": "text/html", "X-Request-Id": "req-7"], Data(Self.proxyPage.utf8))
            default: return (400, [:], StubTransport.error("brand_new_code", "Field 'x' failed validator V2."))
            }
        }
    }

    /// The error `body` throws.
    func failure(_ body: () async throws -> Void) async -> GatehouseError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? GatehouseError
        }
    }

    @Test func aDevelopersMessageIsNotShownButIsLogged() async throws {
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
        let client = GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(session), transport: Self.server())
        let error = try #require(await failure { _ = try await client.profile() })
        #expect(error.code == .unauthorized)
        #expect(error.localizedDescription == "Your session ended. Please sign in again.")
        #expect(!error.localizedDescription.contains("access token"))
        #expect(String(reflecting: error).contains("A valid access token is required."), "the server's text is kept for logs")
        guard case .server(let server) = error else { throw GatehouseError.notSignedIn }
        #expect(server.message == "A valid access token is required.")
    }

    @Test func aProxysPageIsNotShownButIsLogged() async throws {
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: Self.server())
        let error = try #require(await failure { _ = try await client.resendCode(email: "a@example.com") })
        #expect(error.localizedDescription == "Something went wrong. Please try again.")
        #expect(!error.localizedDescription.localizedCaseInsensitiveContains("gateway"))
        let logged = String(reflecting: error)
        #expect(logged.contains("HTTP 502") && logged.contains("<h1>502 Bad Gateway</h1>") && logged.contains("req-7"))
    }

    @Test func anUnknownCodesMessageIsNotShown() async throws {
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: Self.server())
        let error = try #require(await failure { try await client.confirmSignUp(email: "a@example.com", code: "1") })
        #expect(error.code?.rawValue == "brand_new_code")
        #expect(error.localizedDescription == "Something went wrong. Please try again.")
        #expect(String(reflecting: error).contains("Field 'x' failed validator V2."))
    }

    @Test func everyKnownCodeHasWordsOfItsOwn() {
        let stepUp = "This needs a recent sign-in. Sign in again with your password, or send your current password as current_password."
        let refused = GatehouseError.server(ServerError(code: .reauthenticationRequired, message: stepUp, status: 403))
        #expect(refused.localizedDescription == "For your security, sign in again to do this.", "not the field name")
        for code in ErrorCode.known {
            let error = GatehouseError.server(ServerError(code: code, message: "", status: 400, rawBody: "<html>"))
            #expect(error.errorDescription?.isEmpty == false && error.errorDescription != "<html>", "\(code)")
        }
    }
}

import AsyncHTTPClient
import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import NIOCore
import NIOHTTP1
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// moto's SES behind `Tests/ses/moto_ses.py`, started once per test process on a loopback port. Locally,
/// without moto the SES suite is skipped with a note; in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) it fails.
public final class MotoSES: Sendable {
    /// The emulator's base URL (`http://127.0.0.1:port`), for `GATEHOUSE_SES_ENDPOINT`.
    public let endpoint: String
    /// The region moto's SES runs in here.
    public let region = Moto.region
    /// The credentials calls are signed with (moto accepts any).
    public let credentials = Moto.credentials
    /// The running `Tests/ses/moto_ses.py` (kept alive with this object).
    private let server: PythonServer

    /// The shared emulator, or `nil` when moto is not installed here (and that is allowed).
    public static let shared: MotoSES? = PythonServer.emulator("SES", needs: "moto.ses, moto.sesv2, werkzeug") { try MotoSES() }

    /// For `.enabled(if:)`: run when moto is here, or when every suite is required (then the tests fail).
    public static var isAvailable: Bool { shared != nil || TestDatabase.requireAllSuites }

    private init() throws {
        server = try PythonServer(repositoryScript: "Tests/ses/moto_ses.py")
        endpoint = try server.string("endpoint")
    }

    /// Settings pointing at the emulator.
    /// - Parameter configurationSet: The configuration set messages are sent with, if any.
    /// - Returns: Settings for an ``SESTransport``.
    public func settings(configurationSet: String? = nil) -> SESSettings {
        SESSettings(region: region, endpoint: endpoint, configurationSet: configurationSet, credentials: credentials)
    }

    /// The environment that selects this emulator: `GATEHOUSE_MAIL=ses`, the region, the endpoint and credentials.
    public var environment: [String: String] {
        Moto.credentialEnvironment.merging(["GATEHOUSE_MAIL": "ses", "GATEHOUSE_SES_REGION": region, "GATEHOUSE_SES_ENDPOINT": endpoint]) { $1 }
    }

    /// Verifies `address` as a sender identity (a signed v2 `CreateEmailIdentity`); moto refuses mail from
    /// unverified senders as SES does.
    /// - Parameter address: The sender's address.
    /// - Throws: When moto cannot be reached or does not answer 200.
    public func verifyIdentity(_ address: String) async throws {
        let url = URL(string: endpoint)!
        let host = "\(url.host ?? "127.0.0.1"):\(url.port ?? 80)"
        let path = "/v2/email/identities"
        let body = JSONValue.object(["EmailIdentity": .string(address)]).serialized()
        var headers: [(String, String)] = [("Host", host), ("Content-Type", "application/json")]
        let signer = SigV4Signer(credentials: credentials, region: region, service: "ses")
        headers += signer.signatureHeaders(for: SigV4Signer.Request(method: "POST", path: path, headers: headers, body: body), date: Date())
        var request = HTTPClientRequest(url: endpoint + path)
        request.method = .POST
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let answer = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else {
            throw GatehouseError.internalError(cause: "CreateEmailIdentity answered \(response.status.code): \(String(buffer: answer))")
        }
    }

    /// Every message moto accepted: source, destinations and the raw data.
    /// - Returns: The messages, oldest first.
    /// - Throws: When moto cannot be reached.
    public func sent() async throws -> [(source: String, destinations: [String], raw: String)] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: endpoint + "/_ses/sent")!)
        let list = try StrictJSONParser().parse(Array(data)).arrayValue ?? []
        return list.compactMap(\.objectValue).map { entry in
            (
                entry["source"]?.stringValue ?? "", (entry["destinations"]?.arrayValue ?? []).compactMap(\.stringValue),
                entry["raw_data"]?.stringValue ?? ""
            )
        }
    }
}

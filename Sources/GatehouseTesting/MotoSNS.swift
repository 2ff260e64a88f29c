import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// moto's SNS behind `Tests/sns/moto_sns.py`, started once per test process on a loopback port. Locally,
/// without moto the SNS suite is skipped with a note; in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) it fails.
public final class MotoSNS: Sendable {
    /// One text message moto accepted, with what the hook saw of its request.
    public struct SMS: Sendable, Equatable {
        /// moto's message id (what `Publish` answered).
        public var messageID: String
        /// The number it went to.
        public var phoneNumber: String
        /// The text.
        public var message: String
        /// The message attributes as sent: name → (data type, string value).
        public var attributes: [String: [String]]
        /// The request's `Authorization` header.
        public var authorization: String
    }

    /// The emulator's base URL (`http://127.0.0.1:port`), for `GATEHOUSE_SNS_ENDPOINT`.
    public let endpoint: String
    /// The region moto's SNS runs in here.
    public let region = Moto.region
    /// The credentials calls are signed with (moto accepts any).
    public let credentials = Moto.credentials
    /// The running `Tests/sns/moto_sns.py` (kept alive with this object).
    private let server: PythonServer

    /// The shared emulator, or `nil` when moto is not installed here (and that is allowed).
    public static let shared: MotoSNS? = PythonServer.emulator("SNS", needs: "moto.sns, werkzeug") { try MotoSNS() }

    /// For `.enabled(if:)`: run when moto is here, or when every suite is required (then the tests fail).
    public static var isAvailable: Bool { shared != nil || TestDatabase.requireAllSuites }

    private init() throws {
        server = try PythonServer(repositoryScript: "Tests/sns/moto_sns.py")
        endpoint = try server.string("endpoint")
    }

    /// Settings pointing at the emulator.
    /// - Parameter senderID: The sender id messages carry, if any.
    /// - Returns: Settings for an ``SNSTransport``.
    public func settings(senderID: String? = nil) -> SNSSettings {
        SNSSettings(region: region, endpoint: endpoint, senderID: senderID, credentials: credentials)
    }

    /// The environment that selects this emulator: `GATEHOUSE_SMS=sns`, the region, the endpoint and credentials.
    public var environment: [String: String] {
        Moto.credentialEnvironment.merging(["GATEHOUSE_SMS": "sns", "GATEHOUSE_SNS_REGION": region, "GATEHOUSE_SNS_ENDPOINT": endpoint]) { $1 }
    }

    /// Every text message moto accepted, oldest first.
    /// - Returns: The messages.
    /// - Throws: When moto cannot be reached.
    public func sent() async throws -> [SMS] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: endpoint + "/_sns/sms")!)
        let list = try StrictJSONParser().parse(Array(data)).arrayValue ?? []
        return list.compactMap(\.objectValue).map { entry in
            var attributes: [String: [String]] = [:]
            for (name, value) in entry["attributes"]?.objectValue ?? [:] {
                attributes[name] = (value.arrayValue ?? []).compactMap(\.stringValue)
            }
            return SMS(
                messageID: entry["message_id"]?.stringValue ?? "",
                phoneNumber: entry["phone_number"]?.stringValue ?? "",
                message: entry["message"]?.stringValue ?? "",
                attributes: attributes,
                authorization: entry["authorization"]?.stringValue ?? ""
            )
        }
    }
}

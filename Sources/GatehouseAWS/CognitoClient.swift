import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging
import NIOCore
import NIOHTTP1

/// The Cognito Identity Provider API (AWS JSON 1.1) over AsyncHTTPClient: `POST /` with
/// `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`, signed with SigV4 when credentials
/// are configured, retried with jittered back-off on throttling and 5xx only.
public struct CognitoClient: Sendable {
    public struct Settings: Sendable {
        public var region: String
        /// `https://cognito-idp.<region>.amazonaws.com`, or an emulator's URL.
        public var endpoint: String
        public var credentials: SigV4Signer.Credentials?
        public var timeout: TimeAmount
        public var maxAttempts: Int

        public init(
            region: String,
            endpoint: String? = nil,
            credentials: SigV4Signer.Credentials?,
            timeout: TimeAmount = .seconds(10),
            maxAttempts: Int = 3
        ) {
            self.region = region
            self.endpoint = endpoint ?? "https://cognito-idp.\(region).amazonaws.com"
            self.credentials = credentials
            self.timeout = timeout
            self.maxAttempts = max(1, maxAttempts)
        }
    }

    public let settings: Settings
    let http: @Sendable () throws -> HTTPClient
    let clock: any TimeSource

    /// `http` supplies the shared client (created on first use by the server).
    public init(settings: Settings, clock: any TimeSource = SystemTimeSource(), http: @escaping @Sendable () throws -> HTTPClient) {
        self.settings = settings
        self.http = http
        self.clock = clock
    }

    /// Calls `operation` with `input`; returns the output object or throws ``CognitoError``.
    package func call(_ operation: String, _ input: JSONValue, logger: Logger) async throws -> [String: JSONValue] {
        let body = input.serialized()
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await send(operation, body)
            } catch let error as CognitoError where error.isRetryable && attempt < settings.maxAttempts {
                // Full jitter: a random wait up to 100 ms · 2^attempt.
                let cap = 0.1 * pow(2, Double(attempt))
                let wait = Double.random(in: 0...cap)
                logger.info(
                    "retrying Cognito call",
                    metadata: ["cognito.operation": .string(operation), "cognito.error": .string(error.code), "attempt": .stringConvertible(attempt)]
                )
                try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            } catch let error as CognitoError {
                logger.debug("Cognito answered an error", metadata: ["cognito.operation": .string(operation), "cognito.error": .string(error.code)])
                throw error
            }
        }
    }

    func send(_ operation: String, _ body: [UInt8]) async throws -> [String: JSONValue] {
        guard let url = URL(string: settings.endpoint), let host = url.host else {
            throw CognitoError(code: "BadEndpoint", message: "invalid endpoint \(settings.endpoint)", status: 0)
        }
        let hostHeader = url.port.map { "\(host):\($0)" } ?? host
        var headers: [(String, String)] = [
            ("Content-Type", "application/x-amz-json-1.1"),
            ("X-Amz-Target", "AWSCognitoIdentityProviderService.\(operation)"),
            ("Host", hostHeader),
        ]
        if let credentials = settings.credentials {
            let signer = SigV4Signer(credentials: credentials, region: settings.region, service: "cognito-idp")
            let request = SigV4Signer.Request(method: "POST", path: "/", headers: headers, body: body)
            headers += signer.signatureHeaders(for: request, date: clock.now())
        }
        var request = HTTPClientRequest(url: settings.endpoint.hasSuffix("/") ? settings.endpoint : settings.endpoint + "/")
        request.method = .POST
        for (name, value) in headers where name != "Host" { request.headers.add(name: name, value: value) }
        request.headers.replaceOrAdd(name: "Host", value: hostHeader)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await http().execute(request, timeout: settings.timeout)
            bytes = try await response.body.collect(upTo: 1 << 20)
        } catch let error as CognitoError {
            throw error
        } catch let error as GatehouseError {
            throw CognitoError(code: "Transport", message: error.cause ?? error.message, status: 0)
        } catch {
            throw CognitoError(code: "Transport", message: String(describing: error), status: 0)
        }
        let status = Int(response.status.code)
        let contentType = response.headers.first(name: "Content-Type") ?? ""
        let parsed = try? StrictJSONParser().parse(Array(buffer: bytes))
        if (200..<300).contains(status) {
            // A JSON object, or a misrouted request (an emulator answering as S3 with XML) that must not pass for success.
            guard contentType.contains("json"), case .object(let object)? = parsed else {
                throw CognitoError(
                    code: "BadResponse",
                    message: "HTTP \(status) with \(contentType.isEmpty ? "no content type" : contentType)",
                    status: status
                )
            }
            return object
        }
        if case .object(let object)? = parsed, let type = object["__type"]?.stringValue {
            let code = String(type.split(separator: "#").last ?? Substring(type))
            let message = object["message"]?.stringValue ?? object["Message"]?.stringValue ?? ""
            throw CognitoError(code: code, message: message, status: status)
        }
        if let typeHeader = response.headers.first(name: "X-Amzn-ErrorType") {
            throw CognitoError(code: String(typeHeader.split(separator: ":").first ?? Substring(typeHeader)), message: "", status: status)
        }
        throw CognitoError(code: "HTTP\(status)", message: "untyped error answer (\(contentType))", status: status)
    }
}

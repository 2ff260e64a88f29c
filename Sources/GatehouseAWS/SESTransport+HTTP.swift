import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import NIOCore
import NIOHTTP1

extension SESTransport {
    /// What SES answered: the status, its error type and message (for errors), and the JSON object.
    struct Answer: Sendable {
        var status: Int
        var errorType: String?
        var message: String
        var json: [String: JSONValue]?
    }

    /// SES error types a later attempt can get past (throttling, quota, SES's own trouble).
    static let transientTypes: Set<String> = [
        "TooManyRequestsException", "LimitExceededException", "LimitExceeded", "Throttling", "ThrottlingException",
        "ServiceUnavailable", "ServiceUnavailableException", "InternalFailure", "InternalServiceError", "RequestTimeout",
    ]

    /// One signed call to the SES v2 REST API.
    /// - Parameters:
    ///   - method: `GET` or `POST`.
    ///   - path: The API path (`/v2/email/outbound-emails`), appended to the endpoint's own path.
    ///   - body: The JSON body (empty for `GET`).
    ///   - operation: The operation's name, for error details.
    /// - Returns: SES's answer, whatever its status.
    /// - Throws: ``DeliveryError``: transient when SES could not be reached or did not answer in time.
    func call(_ method: String, _ path: String, body: [UInt8] = [], operation: String) async throws -> Answer {
        let request = AWSSignedRequest(
            method: method,
            endpoint: settings.endpoint,
            path: path,
            contentType: body.isEmpty ? nil : "application/json",
            body: body
        )
        let client = try http()
        let reply: AWSSignedRequest.Reply
        do {
            reply = try await request.send(
                service: "ses",
                region: settings.region,
                credentials: settings.credentials,
                timeout: settings.timeout,
                client: client
            )
        } catch {
            throw unanswered(error, operation: operation)
        }
        let status = reply.status
        let parsed = try? StrictJSONParser().parse(Array(buffer: reply.body))
        let json = parsed?.objectValue
        var errorType: String?
        if !(200..<300).contains(status) {
            if let header = reply.headers.first(name: "X-Amzn-ErrorType"), !header.isEmpty {
                errorType = String(header.split(separator: ":").first ?? Substring(header))
            } else if let type = json?["__type"]?.stringValue ?? json?["code"]?.stringValue ?? json?["Code"]?.stringValue {
                errorType = String(type.split(separator: "#").last ?? Substring(type))
            }
        }
        let message = json?["message"]?.stringValue ?? json?["Message"]?.stringValue ?? ""
        return Answer(status: status, errorType: errorType, message: message, json: json)
    }

    /// Whether an error answer is worth retrying, and a detail safe to log.
    /// - Parameters:
    ///   - answer: SES's error answer.
    ///   - operation: The operation, for the detail.
    ///   - sender: The only address the detail may keep (SES's messages may name the recipient).
    /// - Returns: Transient for throttling, quotas and 5xx; permanent otherwise (rejected message,
    ///   unverified sender, suspended account, bad request, refused signature or credentials).
    static func classify(_ answer: Answer, operation: String, sender: String?) -> DeliveryError {
        let type = answer.errorType ?? "HTTP \(answer.status)"
        var detail = "SES \(operation) failed: \(type)"
        if answer.errorType != nil { detail += " (HTTP \(answer.status))" }
        let message = scrub(answer.message, keeping: sender)
        if !message.isEmpty { detail += ": \(message)" }
        if answer.status == 403 {
            let action = operation.hasPrefix("SendEmail") ? "ses:SendEmail and ses:SendRawEmail" : "ses:\(operation.split(separator: " ")[0])"
            detail += "; check the credentials, the clock and the IAM policy (\(action))"
        }
        let transient = answer.status == 429 || answer.status >= 500 || transientTypes.contains(type)
        return DeliveryError(transient ? .transient : .permanent, detail, code: answer.status)
    }

    /// SES's message on one line, at most 300 characters, every address but `sender` replaced by `<address>`.
    static func scrub(_ message: String, keeping sender: String?) -> String {
        var text = AWSSignedRequest.oneLine(message)
        let pattern = #"[^\s<>"'(),;:\[\]]+@[^\s<>"'(),;:\[\]]+"#
        for match in text.matches(of: try! Regex(pattern)).reversed() {
            let found = String(text[match.range]).trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if let sender, found.lowercased() == sender.lowercased() { continue }
            text.replaceSubrange(match.range, with: "<address>")
        }
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    /// No answer from SES: transient, unless the endpoint itself is wrong.
    func unanswered(_ failure: AWSSignedRequest.Failure, operation: String) -> DeliveryError {
        switch failure {
        case .badEndpoint: DeliveryError(.permanent, "SES endpoint \(settings.endpoint) is not a URL")
        case .timedOut(let host):
            DeliveryError(.transient, "SES \(operation): no answer from \(host) within \(settings.timeout.nanoseconds / 1_000_000_000) s")
        case .unreachable(let host, let detail): DeliveryError(.transient, "SES \(operation): cannot reach \(host): \(detail)")
        }
    }
}

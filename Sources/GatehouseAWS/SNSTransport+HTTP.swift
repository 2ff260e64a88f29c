import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseMessaging
import NIOCore
import NIOHTTP1

extension SNSTransport {
    /// What SNS answered: the status, its error code and message (for errors), and the XML body.
    struct Answer: Sendable {
        var status: Int
        var errorCode: String?
        var message: String
        var body: String
    }

    /// SNS error codes a later attempt can get past (throttling, SNS's own trouble).
    static let transientCodes: Set<String> = [
        "Throttled", "Throttling", "ThrottlingException", "ThrottledException", "KMSThrottling", "RequestLimitExceeded",
        "InternalError", "InternalFailure", "ServiceUnavailable", "RequestTimeout",
    ]

    /// One signed call to the SNS query API: a form-encoded `POST` to the endpoint's path.
    /// - Parameters:
    ///   - fields: The form fields, `Action` and `Version` among them.
    ///   - operation: The operation's name, for error details.
    /// - Returns: SNS's answer, whatever its status.
    /// - Throws: ``DeliveryError``: transient when SNS could not be reached or did not answer in time.
    func call(_ fields: [(String, String)], operation: String) async throws -> Answer {
        let body = Array(fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&").utf8)
        let request = AWSSignedRequest(
            method: "POST",
            endpoint: settings.endpoint,
            path: "",
            contentType: "application/x-www-form-urlencoded; charset=utf-8",
            body: body
        )
        let client = try http()
        let reply: AWSSignedRequest.Reply
        do {
            reply = try await request.send(
                service: "sns",
                region: settings.region,
                credentials: settings.credentials,
                timeout: settings.timeout,
                client: client
            )
        } catch {
            throw unanswered(error, operation: operation)
        }
        let status = reply.status
        let text = String(buffer: reply.body)
        let ok = (200..<300).contains(status)
        return Answer(
            status: status,
            errorCode: ok ? nil : Self.element("Code", in: text),
            message: ok ? "" : Self.element("Message", in: text) ?? "",
            body: text
        )
    }

    /// Whether an error answer is worth retrying, and a detail safe to log.
    /// - Parameters:
    ///   - answer: SNS's error answer.
    ///   - operation: The operation, for the detail.
    /// - Returns: Transient for throttling, 429 and 5xx; permanent otherwise (a refused number or message,
    ///   a bad request, refused signature, credentials or permissions).
    static func classify(_ answer: Answer, operation: String) -> DeliveryError {
        let code = answer.errorCode ?? "HTTP \(answer.status)"
        var detail = "SNS \(operation) failed: \(code)"
        if answer.errorCode != nil { detail += " (HTTP \(answer.status))" }
        let message = scrub(answer.message)
        if !message.isEmpty { detail += ": \(message)" }
        if answer.status == 403 {
            detail += "; check the credentials, the clock and the IAM policy (sns:\(operation))"
        }
        let transient = answer.status == 429 || answer.status >= 500 || transientCodes.contains(code)
        return DeliveryError(transient ? .transient : .permanent, detail, code: answer.status)
    }

    /// SNS's message on one line, at most 300 characters, every run of 5 or more digits (a phone number,
    /// perhaps a code) replaced by `<number>`.
    static func scrub(_ message: String) -> String {
        let line = AWSSignedRequest.oneLine(message)
        let text = line.replacing(try! Regex(#"\+?[0-9][0-9 ().-]{3,}[0-9]"#)) { match in
            line[match.range].filter(\.isNumber).count >= 5 ? "<number>" : String(line[match.range])
        }
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    /// The text of the first `<name>…</name>` element in `xml`, with XML's five entities decoded.
    static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex) else {
            return nil
        }
        return String(xml[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The value of the `GetSMSAttributes` entry whose key is `key`, if SNS reported it.
    static func attribute(_ key: String, in xml: String) -> String? {
        guard let keyRange = xml.range(of: "<key>\(key)</key>") else { return nil }
        return element("value", in: String(xml[keyRange.upperBound...]))
    }

    /// `text` percent-encoded for a form body: everything but RFC 3986's unreserved characters.
    static func formEncode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// No answer from SNS: transient, unless the endpoint itself is wrong.
    func unanswered(_ failure: AWSSignedRequest.Failure, operation: String) -> DeliveryError {
        switch failure {
        case .badEndpoint: DeliveryError(.permanent, "SNS endpoint \(settings.endpoint) is not a URL")
        case .timedOut(let host):
            DeliveryError(.transient, "SNS \(operation): no answer from \(host) within \(settings.timeout.nanoseconds / 1_000_000_000) s")
        case .unreachable(let host, let detail): DeliveryError(.transient, "SNS \(operation): cannot reach \(host): \(detail)")
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting

/// A message as a mail server received it (the raw RFC 5322 text), taken apart the way a mail client
/// would: unfolded headers, and for `multipart/alternative` the text and HTML parts, quoted-printable decoded.
struct DeliveredMessage: Sendable {
    /// The raw message.
    let raw: String
    /// The top-level headers, unfolded, in order (name as written, value without leading spaces).
    let headers: [(name: String, value: String)]
    /// The top-level `Content-Type`.
    let contentType: String
    /// The decoded `text/plain` part (or the whole body of a single-part message).
    let text: String?
    /// The decoded `text/html` part.
    let html: String?

    /// Parses `raw` (CRLF or LF line endings).
    /// - Parameter raw: The message as delivered.
    init(_ raw: String) {
        self.raw = raw
        let normalized = raw.replacingOccurrences(of: "\r\n", with: "\n")
        let (head, body) = Self.split(normalized)
        headers = Self.headers(head)
        let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? "text/plain"
        contentType = type
        guard type.lowercased().hasPrefix("multipart/"), let boundary = Self.parameter("boundary", in: type) else {
            text = Self.decode(body, headers: headers)
            html = nil
            return
        }
        var text: String?
        var html: String?
        for part in body.components(separatedBy: "--\(boundary)").dropFirst() where !part.hasPrefix("--") {
            let (partHead, partBody) = Self.split(String(part.drop { $0 == "\n" }))
            let partHeaders = Self.headers(partHead)
            let partType = partHeaders.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
            let decoded = Self.decode(partBody.hasSuffix("\n") ? String(partBody.dropLast()) : partBody, headers: partHeaders)
            if partType.hasPrefix("text/plain") { text = decoded }
            if partType.hasPrefix("text/html") { html = decoded }
        }
        (self.text, self.html) = (text, html)
    }

    /// The first header called `name` (case-insensitive).
    /// - Parameter name: The header's name.
    /// - Returns: Its unfolded value.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The 6-digit code on its own line in the text part, as a user would copy it.
    var code: String? { text.flatMap { CapturingMailer.code(in: $0) } }

    private static func split(_ text: String) -> (head: String, body: String) {
        guard let range = text.range(of: "\n\n") else { return (text, "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }

    private static func headers(_ head: String) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for line in head.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first == " " || first == "\t", !result.isEmpty {
                result[result.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                result.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return result
    }

    private static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return nil
    }

    private static func decode(_ body: String, headers: [(name: String, value: String)]) -> String? {
        let encoding = headers.first { $0.name.lowercased() == "content-transfer-encoding" }?.value.lowercased()
        guard encoding == "quoted-printable" else { return body }
        return QuotedPrintable.decode(body).map { String(decoding: $0, as: UTF8.self) }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// A complete RFC 5322 / MIME message: the header block and a `multipart/alternative` body (text/plain
/// then text/html, UTF-8, quoted-printable), or a single text/plain part. CRLF line endings everywhere.
///
/// Every header value comes from a checked ``MailAddress``, a fixed token, or text that
/// ``MailHeaderEncoding`` has made one line and encoded, so no value can start a header of its own.
struct MIMEMessage: Sendable {
    var from: MailAddress
    var to: MailAddress
    var replyTo: MailAddress?
    var subject: String
    var text: String
    var html: String?
    var date: Date
    /// The left part of the `Message-ID` (the right part is the sender's domain).
    var id: String
    var kind: String

    /// Characters a boundary is made of (RFC 2046 `bchars`, minus the ones that need care).
    static let boundaryAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// The message's bytes.
    /// - Returns: Headers, a blank line and the body, CRLF line endings.
    /// - Throws: ``DeliveryError`` (permanent) when the id or kind cannot be written in a header.
    func render() throws -> [UInt8] {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+")
        guard !id.isEmpty, id.unicodeScalars.allSatisfy({ safe.contains($0) }), !kind.isEmpty,
            kind.unicodeScalars.allSatisfy({ safe.contains($0) })
        else {
            throw DeliveryError(.permanent, "the message id or kind holds characters a header cannot carry")
        }
        var headers = ["From: \(from.header)", "To: \(to.header)"]
        if let replyTo { headers.append("Reply-To: \(replyTo.header)") }
        headers += [
            MailHeaderEncoding.unstructured("Subject", subject),
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(id)@\(from.domain)>",
            "MIME-Version: 1.0",
            "Auto-Submitted: auto-generated",
            "X-Gatehouse-Kind: \(kind)",
        ]
        let textPart = QuotedPrintable.encode(text)
        let body: String
        if let html {
            let htmlPart = QuotedPrintable.encode(html)
            let boundary = Self.boundary(avoiding: [textPart, htmlPart])
            headers.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
            body = [
                "This is a multi-part message in MIME format.",
                "",
                "--\(boundary)",
                "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                textPart,
                "--\(boundary)",
                "Content-Type: text/html; charset=utf-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                htmlPart,
                "--\(boundary)--",
            ].joined(separator: "\r\n")
        } else {
            headers += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable"]
            body = textPart
        }
        return Array((headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n").utf8)
    }

    /// A random boundary that occurs in none of `parts`. (Quoted-printable never writes `=_`, so the
    /// first one always does; the check keeps that true whatever the encoding.)
    static func boundary(avoiding parts: [String]) -> String {
        while true {
            var generator = SystemRandomNumberGenerator()
            let random = String((0..<28).map { _ in boundaryAlphabet.randomElement(using: &generator)! })
            let boundary = "=_gatehouse_\(random)"
            if !parts.contains(where: { $0.contains(boundary) }) { return boundary }
        }
    }

    /// An RFC 5322 date in UTC, `Tue, 24 Nov 2026 13:10:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}

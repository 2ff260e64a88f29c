import Foundation
import GatehouseCore

@testable import GatehouseMessaging

/// A rendered message taken apart the way a mail reader does it: the header block (unfolded), and the
/// parts of a `multipart/alternative` body, decoded from quoted-printable.
struct ParsedMail {
    /// Every header line, unfolded, in order: (name, value).
    var headers: [(name: String, value: String)]
    /// The raw header block, lines joined by CRLF.
    var headerBlock: String
    /// The body as written (after the blank line).
    var body: String
    /// The parts: content type and decoded text.
    var parts: [(contentType: String, text: String)]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ data: [UInt8]) throws {
        let text = String(decoding: data, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { throw Failure(description: "no blank line after the headers") }
        headerBlock = String(text[..<end.lowerBound])
        body = String(text[end.upperBound...])
        headers = []
        for line in headerBlock.components(separatedBy: "\r\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                guard !headers.isEmpty else { throw Failure(description: "a continuation line opens the header block") }
                headers[headers.count - 1].value += line
            } else {
                guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "a header line without a colon: \(line)") }
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
        }
        parts = []
        let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        if let range = contentType.range(of: "boundary=\"") {
            let rest = contentType[range.upperBound...]
            let boundary = String(rest[..<rest.firstIndex(of: "\"")!])
            let sections = body.components(separatedBy: "--\(boundary)")
            guard sections.count >= 3, sections.last?.hasPrefix("--") == true else { throw Failure(description: "unterminated multipart body") }
            for section in sections.dropFirst().dropLast() {
                guard let split = section.range(of: "\r\n\r\n") else { throw Failure(description: "a part without headers") }
                let partHeaders = section[..<split.lowerBound]
                var encoded = String(section[split.upperBound...])
                if encoded.hasSuffix("\r\n") { encoded.removeLast(1) }  // the CRLF before the delimiter belongs to it
                let type = partHeaders.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-type:") } ?? ""
                guard let decoded = QuotedPrintable.decode(encoded) else { throw Failure(description: "a part is not quoted-printable") }
                parts.append(
                    (String(type.dropFirst("Content-Type:".count)).trimmingCharacters(in: .whitespaces), String(decoding: decoded, as: UTF8.self))
                )
            }
        } else if let decoded = QuotedPrintable.decode(body) {
            parts = [(contentType, String(decoding: decoded, as: UTF8.self))]
        }
    }

    /// The names of the header fields, in order.
    var headerNames: [String] { headers.map(\.name) }

    /// The value of the first header called `name` (any case), unfolded.
    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}

/// One SMTP reply: a three-digit code and its text, one entry per line (`250-…` continuation lines
/// and the final `250 …` line).
public struct SMTPReply: Sendable, Equatable, CustomStringConvertible {
    /// The reply code, 200 to 599.
    public var code: Int
    /// The text of each line, without the code and separator.
    public var lines: [String]

    /// A reply.
    /// - Parameters:
    ///   - code: The reply code.
    ///   - lines: The text of each line.
    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// 2xx: done. 3xx: go on (354 after DATA, 334 during AUTH).
    public var isPositive: Bool { code < 400 }
    /// 4xx: try again later.
    public var isTransient: Bool { (400..<500).contains(code) }

    /// The first line of text, cleaned for a log: addresses replaced by `<address>`, control characters
    /// dropped, at most 160 characters (servers quote the recipient in their rejections).
    public var safeText: String {
        let words = (lines.first ?? "").split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.contains("@") ? "<address>" : String(word)
        }
        let text = String(words.joined(separator: " ").unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    /// The EHLO keywords of a reply to EHLO (every line after the first), upper-cased, with their parameters.
    public var extensions: [String: [String]] {
        var result: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let words = line.split(separator: " ").map(String.init)
            if let keyword = words.first { result[keyword.uppercased()] = Array(words.dropFirst()) }
        }
        return result
    }

    public var description: String { "\(code) \(safeText)" }
}

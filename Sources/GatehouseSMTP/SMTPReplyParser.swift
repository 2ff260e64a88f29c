import NIOCore

/// A reply the parser cannot accept: the connection is closed, since its framing is lost.
public struct SMTPMalformedReply: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, without the server's text.
    public var reason: String

    public var description: String { "malformed SMTP reply: \(reason)" }
}

/// Reads SMTP replies (RFC 5321 §4.2) from the bytes a server sends, across reads: `250-first`,
/// `250-second`, `250 last` make one reply. Lines end with CRLF (a bare LF is accepted); a line is at
/// most ``maxLineLength`` bytes and a reply at most ``maxLines`` lines, so a hostile server cannot make
/// the client buffer without end.
public struct SMTPReplyParser: Sendable {
    /// The longest line accepted, in bytes (RFC 5321 allows 512; servers' EHLO lines sometimes exceed it).
    public static let maxLineLength = 2048
    /// The most lines one reply may have.
    public static let maxLines = 128

    private var code: Int?
    private var lines: [String] = []

    /// A parser with nothing read yet.
    public init() {}

    /// Whether part of a multi-line reply has been read.
    public var isMidReply: Bool { code != nil }

    /// Consumes complete lines from `buffer` until one reply is complete.
    /// - Parameter buffer: Bytes from the server; complete lines are consumed, a partial line is left.
    /// - Returns: The reply, or `nil` if more bytes are needed.
    /// - Throws: ``SMTPMalformedReply`` for a line that is not `NNN text`, `NNN-text` or `NNN`, a code
    ///   outside 200–599, continuation lines with another code, or a line or reply too long.
    public mutating func parse(_ buffer: inout ByteBuffer) throws(SMTPMalformedReply) -> SMTPReply? {
        while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - buffer.readerIndex
            guard length < Self.maxLineLength else { throw SMTPMalformedReply(reason: "a line longer than \(Self.maxLineLength) bytes") }
            var line = buffer.readBytes(length: length + 1)!
            line.removeLast()
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let reply = try take(line) { return reply }
        }
        guard buffer.readableBytes < Self.maxLineLength else { throw SMTPMalformedReply(reason: "a line longer than \(Self.maxLineLength) bytes") }
        return nil
    }

    private mutating func take(_ line: [UInt8]) throws(SMTPMalformedReply) -> SMTPReply? {
        guard line.count >= 3, line.prefix(3).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            (UInt8(ascii: "2")...UInt8(ascii: "5")).contains(line[0])
        else { throw SMTPMalformedReply(reason: "a line without a reply code 200-599") }
        let lineCode = line.prefix(3).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        if let code, code != lineCode { throw SMTPMalformedReply(reason: "continuation line \(lineCode) inside reply \(code)") }
        let separator = line.count > 3 ? line[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
            throw SMTPMalformedReply(reason: "a reply code followed by neither a space nor a hyphen")
        }
        code = lineCode
        lines.append(String(decoding: line.dropFirst(4), as: UTF8.self))
        guard lines.count <= Self.maxLines else { throw SMTPMalformedReply(reason: "a reply of more than \(Self.maxLines) lines") }
        guard separator == UInt8(ascii: " ") else { return nil }
        defer {
            code = nil
            lines = []
        }
        return SMTPReply(code: lineCode, lines: lines)
    }
}

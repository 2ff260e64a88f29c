import NIOCore

/// The bytes sent after `354`: the message with every line ending in CRLF (a bare LF or CR becomes
/// CRLF), a line starting with "." given another "." (RFC 5321 §4.5.2), and the "\r\n.\r\n" end mark.
public enum SMTPDataEncoder {
    /// Encodes a message for the DATA phase.
    /// - Parameter message: The RFC 5322 text, normally with CRLF line endings.
    /// - Returns: The transparent data, ending with "\r\n.\r\n".
    public static func encode(_ message: [UInt8]) -> ByteBuffer {
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        let dot = UInt8(ascii: ".")
        var out = ByteBuffer()
        out.reserveCapacity(message.count + message.count / 64 + 8)
        var atLineStart = true
        var index = 0
        while index < message.count {
            let byte = message[index]
            index += 1
            if byte == cr || byte == lf {
                if byte == cr, index < message.count, message[index] == lf { index += 1 }
                out.writeBytes([cr, lf])
                atLineStart = true
                continue
            }
            if atLineStart, byte == dot { out.writeInteger(dot) }
            out.writeInteger(byte)
            atLineStart = false
        }
        if !atLineStart { out.writeBytes([cr, lf]) }
        out.writeBytes([dot, cr, lf])
        return out
    }
}

import Foundation

/// Renders a ``MailMessage`` as an RFC 5322 message (UTF-8 text, quoted-printable body, RFC 2047
/// encoded subject), with CRLF line endings.
enum RFC5322Message {
    static func render(_ message: MailMessage, from: String, date: Date, messageID: String) -> String {
        var lines = [
            "From: \(from)",
            "To: \(message.to)",
            "Subject: \(encodeHeader(message.subject))",
            "Date: \(rfc5322Date(date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "X-Gatehouse-Kind: \(message.kind)",
            "",
        ]
        lines.append(quotedPrintable(message.body))
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func encodeHeader(_ value: String) -> String {
        let clean = value.filter { !$0.isNewline }
        if clean.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) { return clean }
        return "=?utf-8?B?" + Data(clean.utf8).base64EncodedString() + "?="
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// RFC 2045 quoted-printable with soft line breaks at 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var output: [String] = []
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            var encoded = ""
            var lineLength = 0
            let bytes = Array(line.utf8)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                var piece: String
                if (byte == 0x20 || byte == 0x09) && !isLast {
                    piece = String(UnicodeScalar(byte))
                } else if byte >= 33 && byte <= 126 && byte != 61 {
                    piece = String(UnicodeScalar(byte))
                } else {
                    piece = "=" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
                }
                if lineLength + piece.count > 75 {
                    encoded += "=\r\n"
                    lineLength = 0
                }
                encoded += piece
                lineLength += piece.count
            }
            output.append(encoded)
        }
        return output.joined(separator: "\r\n")
    }
}

import Foundation
import GatehouseCore
import Testing

@testable import GatehouseMessaging

@Suite("Mail MIME")
struct MailMIMETests {
    static let date = Date(timeIntervalSince1970: 1_795_000_000)

    static func render(
        appName: String = "Acme",
        from: String = "Acme Accounts <no-reply@acme.example>",
        replyTo: String? = "help@acme.example",
        name: String? = "Alice"
    ) throws -> (OutgoingMail, ParsedMail) {
        let renderer = try MailRenderer(appName: appName, from: from, replyTo: replyTo)
        let request = MailRequest(kind: .confirmSignUp, to: "alice@example.com", name: name, code: "123456", lifetime: 900)
        let mail = try renderer.render(request, id: "1795000000-abc_DEF", date: date)
        return (mail, try ParsedMail(mail.data))
    }

    @Test("multipart/alternative, text then HTML, quoted-printable, CRLF, the headers a reader expects")
    func structure() throws {
        let (mail, parsed) = try Self.render()
        #expect(
            parsed.headerNames == [
                "From", "To", "Reply-To", "Subject", "Date", "Message-ID", "MIME-Version", "Auto-Submitted", "X-Gatehouse-Kind", "Content-Type",
            ]
        )
        #expect(parsed.header("From") == "Acme Accounts <no-reply@acme.example>")
        #expect(parsed.header("To") == "alice@example.com" && parsed.header("Reply-To") == "help@acme.example")
        #expect(parsed.header("Date") == "Wed, 18 Nov 2026 11:06:40 +0000")
        #expect(parsed.header("Message-ID") == "<1795000000-abc_DEF@acme.example>")
        #expect(parsed.header("Auto-Submitted") == "auto-generated" && parsed.header("X-Gatehouse-Kind") == "confirm_signup")
        #expect(parsed.header("Content-Type")?.hasPrefix("multipart/alternative; boundary=\"=_gatehouse_") == true)
        #expect(mail.sender == "no-reply@acme.example" && mail.recipient == "alice@example.com" && mail.kind == "confirm_signup")
        #expect(parsed.parts.map(\.contentType) == ["text/plain; charset=utf-8", "text/html; charset=utf-8"])
        #expect(parsed.parts.first?.text == mail.message.body && parsed.parts.last?.text == mail.message.html)
        #expect(parsed.body.components(separatedBy: "Content-Transfer-Encoding: quoted-printable").count == 3)
        // CRLF everywhere: no CR or LF on its own.
        let text = String(decoding: mail.data, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains { $0 == "\r" || $0 == "\n" })
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78, "line too long: \(line)") }
        for line in parsed.body.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 76) }
    }

    @Test("a new boundary each time, found in neither part")
    func boundaries() throws {
        let (_, first) = try Self.render()
        let (_, second) = try Self.render()
        #expect(first.header("Content-Type") != second.header("Content-Type"))
        let boundary = MIMEMessage.boundary(avoiding: ["a=_gatehouse_x"])
        #expect(boundary.hasPrefix("=_gatehouse_") && boundary.count > 30)
    }

    @Test("non-ASCII names and subjects are RFC 2047 encoded, folded, and decode back")
    func nonASCII() throws {
        let appName = "Café Crème — les comptes de la Maison Ünïcødé, avec un nom très long pour plier l'en-tête"
        let (mail, parsed) = try Self.render(appName: appName, from: "Zoë Åberg <zoe@acme.example>", name: "Jürgen")
        let subject = try #require(parsed.header("Subject"))
        #expect(subject.hasPrefix("=?utf-8?B?") && subject.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(MailHeaderEncoding.decode(subject) == mail.message.subject && mail.message.subject.contains(appName))
        #expect(parsed.headerBlock.contains("\r\n =?utf-8?B?"), "the long subject is folded")
        for word in subject.split(separator: " ") { #expect(word.count <= 75) }
        let from = try #require(parsed.header("From"))
        #expect(from.hasSuffix(" <zoe@acme.example>") && MailHeaderEncoding.decode(from) == "Zoë Åberg <zoe@acme.example>")
        #expect(parsed.parts.first?.text.hasPrefix("Hello Jürgen,") == true)
        #expect(String(decoding: mail.data, as: UTF8.self).unicodeScalars.allSatisfy { $0.isASCII }, "everything is 7-bit on the wire")
    }

    @Test("display names with specials are quoted; plain ASCII subjects are left readable")
    func quotedNames() throws {
        #expect(try MailAddress(parsing: "Acme, Inc. <a@acme.example>").header == "\"Acme, Inc.\" <a@acme.example>")
        #expect(try MailAddress(parsing: "\"Say \\\"hi\\\"\" <a@acme.example>").displayName == "Say \"hi\"")
        #expect(try MailAddress(parsing: "Say \"hi\" <a@acme.example>").header == "\"Say \\\"hi\\\"\" <a@acme.example>")
        #expect(try MailAddress(parsing: "  a@acme.example ").header == "a@acme.example")
        #expect(try MailAddress(parsing: "<a@acme.example>").displayName == nil)
        #expect(MailHeaderEncoding.unstructured("Subject", "Plain words") == "Subject: Plain words")
        #expect(MailHeaderEncoding.unstructured("Subject", "looks =?like?= a word").hasPrefix("Subject: =?utf-8?B?"))
    }

    @Test(
        "addresses that could not be one plain mailbox are refused",
        arguments: [
            "", "plain", "a@b@c.example", "@acme.example", "a@", "a b@acme.example", "a@acme..example", "a<b@acme.example", "a\"b@acme.example",
            "a@acme.example,b@acme.example", "a@acme.example\r\n", "Name <a@acme.example", "Name <>",
        ]
    )
    func invalidAddresses(_ text: String) {
        #expect(throws: MailAddress.Invalid.self) { try MailAddress(parsing: text) }
    }

    @Test("quoted-printable: long lines, '=', trailing spaces and non-ASCII survive the round trip in lines of at most 76")
    func quotedPrintableRoundTrip() throws {
        let samples = [
            String(repeating: "a", count: 200),
            String(repeating: "=", count: 100),
            "trailing space \ntrailing tab\t\nend",
            String(repeating: "é€😀 ", count: 40),
            String(repeating: "x", count: 75) + "=" + String(repeating: "y", count: 80),
            "a line\n\nwith blank lines\n",
            String(repeating: "b", count: 76),
            String(repeating: "c", count: 77),
        ]
        for sample in samples {
            let encoded = QuotedPrintable.encode(sample)
            for line in encoded.components(separatedBy: "\r\n") {
                #expect(line.utf8.count <= 76, "\(line)")
                #expect(!line.hasSuffix(" ") && !line.hasSuffix("\t"), "trailing white space must be encoded")
            }
            #expect(encoded.unicodeScalars.allSatisfy { $0.isASCII })
            let decoded = try #require(QuotedPrintable.decode(encoded))
            #expect(String(decoding: decoded, as: UTF8.self) == sample)
        }
        #expect(QuotedPrintable.encode("a=b") == "a=3Db")
        #expect(QuotedPrintable.decode("bad=ZZ") == nil)
    }
}

import GatehouseSMTP
import NIOCore
import Testing

@Suite("SMTP replies")
struct SMTPReplyTests {
    private func parse(_ text: String) throws -> [SMTPReply] {
        var parser = SMTPReplyParser()
        var buffer = ByteBuffer(string: text)
        var replies: [SMTPReply] = []
        while let reply = try parser.parse(&buffer) { replies.append(reply) }
        return replies
    }

    @Test func singleAndMultiLineReplies() throws {
        let replies = try parse("220 smtp.test ready\r\n250-smtp.test\r\n250-STARTTLS\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n")
        #expect(
            replies == [
                SMTPReply(code: 220, lines: ["smtp.test ready"]),
                SMTPReply(code: 250, lines: ["smtp.test", "STARTTLS", "AUTH PLAIN LOGIN", "8BITMIME"]),
            ]
        )
        #expect(replies[1].extensions["AUTH"] == ["PLAIN", "LOGIN"])
        #expect(replies[1].extensions["STARTTLS"] == [])
    }

    @Test func replyAcrossReadsAndBareCode() throws {
        var parser = SMTPReplyParser()
        var buffer = ByteBuffer(string: "250-first\r\n25")
        #expect(try parser.parse(&buffer) == nil)
        #expect(parser.isMidReply)
        buffer.writeString("0 last\n")  // a bare LF is accepted
        #expect(try parser.parse(&buffer) == SMTPReply(code: 250, lines: ["first", "last"]))
        #expect(try parse("354\r\n") == [SMTPReply(code: 354, lines: [""])])
    }

    @Test(arguments: [
        "hello\r\n", "25\r\n", "250_x\r\n", "600 no\r\n", "199 no\r\n", "250-first\r\n251 other code\r\n",
        String(repeating: "a", count: 3000), "250 " + String(repeating: "x", count: 3000) + "\r\n",
    ])
    func malformedRepliesThrow(_ text: String) {
        #expect(throws: SMTPMalformedReply.self) { try parse(text) }
    }

    @Test func tooManyLinesThrow() {
        #expect(throws: SMTPMalformedReply.self) { try parse(String(repeating: "250-x\r\n", count: 200) + "250 end\r\n") }
    }

    @Test func classesAndSafeText() {
        #expect(SMTPReply(code: 451, lines: []).isTransient)
        #expect(!SMTPReply(code: 550, lines: []).isTransient && !SMTPReply(code: 550, lines: []).isPositive)
        #expect(SMTPReply(code: 334, lines: []).isPositive)
        let reply = SMTPReply(code: 550, lines: ["5.1.1 <bob@example.com>: unknown user\u{7}"])
        #expect(reply.safeText == "5.1.1 <address> unknown user")
    }

    @Test func dotStuffingAndLineEndings() {
        let encoded = SMTPDataEncoder.encode(Array("Subject: x\r\n\r\n.one\r\n..two\nthree\rfour\r\n.\r\nend".utf8))
        #expect(String(buffer: encoded) == "Subject: x\r\n\r\n..one\r\n...two\r\nthree\r\nfour\r\n..\r\nend\r\n.\r\n")
        #expect(String(buffer: SMTPDataEncoder.encode(Array(".\r\n".utf8))) == "..\r\n.\r\n")
        #expect(String(buffer: SMTPDataEncoder.encode([])) == ".\r\n")
    }
}

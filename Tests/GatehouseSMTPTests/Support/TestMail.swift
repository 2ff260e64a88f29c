import GatehouseCore
import GatehouseMessaging

/// A message for the tests: `data` as given, the rest filled in.
func testMail(to recipient: String, data: String = "Subject: hello\r\n\r\nHello.\r\n", id: String = "m1") -> OutgoingMail {
    OutgoingMail(
        id: id,
        kind: "test",
        sender: "noreply@gatehouse.test",
        recipient: recipient,
        data: Array(data.utf8),
        message: MailMessage(kind: "test", to: recipient, subject: "hello", body: "Hello.")
    )
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import GatehouseServer

/// Bodies without a Content-Length (`Transfer-Encoding: chunked`) meet the same cap as declared ones
/// (issue 11, item 9): over a real socket, since only there is a body chunked.
@Suite("Routes: chunked bodies over the cap", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ChunkedBodyTests {
    struct Posted {
        var status: Int
        var contentType: String
        var body: String
        var errorCode: String? {
            (try? StrictJSONParser().parse(Array(body.utf8)))?.objectValue?["error"]?.objectValue?["code"]?.stringValue
        }
    }

    /// POSTs `body` chunked with `chunked_post.py`; `nil` when Python is not available here.
    static func postChunked(port: Int, _ path: String, contentType: String, body: String) async throws -> Posted? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gh-chunked-\(UUID().uuidString)")
        try body.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard
            let result = try await PythonScript.run(
                "chunked_post.py",
                arguments: [String(port), path, contentType, file.path],
                requiring: "http.client"
            )
        else {
            return nil
        }
        let line = try #require(result.output.split(separator: "\n").last.map(String.init), "\(result.output)")
        let object = try #require(try StrictJSONParser().parse(Array(line.utf8)).objectValue, "\(result.output)")
        let status = try #require(object["status"]?.int64Value, "no reply: \(result.output)")
        return Posted(status: Int(status), contentType: object["content_type"]?.stringValue ?? "", body: object["body"]?.stringValue ?? "")
    }

    @Test(arguments: TestDatabase.available)
    func chunkedBodiesOverTheCapAre413AndChangeNothing(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database) { $0.maxBodySize = 2048 }
        try await app.live { client in
            let port = try #require(client.port)
            let padding = String(repeating: "x", count: 16 * 1024)
            // A valid sign-up, only too long: read whole, it would create the account.
            let signUp = #"{"email":"big@example.com","password":"correct horse 9","full_name":""# + padding + #""}"#
            guard let json = try await Self.postChunked(port: port, "/auth/signup", contentType: "application/json", body: signUp) else { return }
            #expect(json.status == 413 && json.errorCode == "payload_too_large", "\(json)")
            let signIn = #"{"email":"big@example.com","password":""# + padding + #""}"#
            let other = try #require(try await Self.postChunked(port: port, "/auth/signin", contentType: "application/json", body: signIn))
            #expect(other.status == 413 && other.errorCode == "payload_too_large", "\(other)")

            // The form endpoint answers as it does to a declared oversize form: its page, sending the
            // browser back to the app with `error=invalid_request` (never a 500).
            let form = try #require(
                try await Self.postChunked(
                    port: port,
                    "/auth/apple/callback",
                    contentType: "application/x-www-form-urlencoded",
                    body: "state=s&code=c&id_token=" + padding
                )
            )
            let declared = try await client.send(
                .post,
                "/auth/apple/callback",
                raw: "state=s&code=c&id_token=" + padding,
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(form.status == Int(declared.status.code) && form.status == 200, "\(form)")
            #expect(form.contentType.hasPrefix("text/html") && form.body.contains("invalid_request"), "\(form)")

            // Nothing was half-done: no account, no mail.
            #expect(try await app.built.store.read { try await $0.user(emailKey: "big@example.com") } == nil)
            #expect(await app.mailer.all.isEmpty)

            // A chunked body under the cap is read as usual.
            let small = try #require(
                try await Self.postChunked(
                    port: port,
                    "/auth/signup",
                    contentType: "application/json",
                    body: #"{"email":"small@example.com","password":"correct horse 9"}"#
                )
            )
            #expect(small.status == 201, "\(small)")
        }
    }

    /// Whatever reads a body, NIO's "too many bytes" (what a chunked body over the cap throws) is 413.
    @Test func tooManyBytesMapsTo413() {
        let mapped = ContractFailures.from(NIOTooManyBytesError(maxBytes: 2048))
        #expect(mapped.wireCode == TransportError.Code.payloadTooLarge.rawValue)
        #expect(mapped.status == .contentTooLarge)
    }
}

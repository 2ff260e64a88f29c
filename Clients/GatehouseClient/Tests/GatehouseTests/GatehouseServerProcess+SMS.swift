import Foundation
import Testing

/// Phone sign-in on the real server: whether the binary has it, and the codes it texts (the outbox SMS sender,
/// the default, writes each message as a `.txt` file under `<data dir>/sms/`: `To: <number>`, then `Text: <text>`).
extension GatehouseServerProcess {
    /// The settings phone sign-in needs: texts may go to North America and the UK.
    static let phoneEnvironment = ["GATEHOUSE_SMS_COUNTRIES": "US,CA,GB", "GATEHOUSE_SMS": "outbox"]

    /// Whether the phone end-to-end suite can run: the binary is there and answers `POST /auth/phone/send`
    /// with something other than 404. A binary from before phone sign-in skips the suite with a note; in CI
    /// (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) the suite always runs, so such a binary fails it instead.
    static var supportsPhoneSignIn: Bool {
        get async { await phoneProbe.value }
    }

    private static let phoneProbe = Task<Bool, Never> {
        guard isAvailable else { return false }
        if ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1" { return true }
        var answer = "no answer"
        do {
            let server = try GatehouseServerProcess(environment: phoneEnvironment)
            defer { server.stop() }
            let (status, _) = try await server.raw("POST", "/auth/phone/send", json: ["phone": "+14155550100"])
            if status != 404 { return true }
            answer = "HTTP 404"
        } catch {
            answer = "\(error)"
        }
        FileHandle.standardError.write(
            Data(
                ("note: GatehouseClient phone end-to-end suite skipped: the server at \(binary.path) answers POST /auth/phone/send "
                    + "with \(answer) (a build from before phone sign-in; rebuild it, or set GATEHOUSE_SERVER_BINARY)\n").utf8
            )
        )
        return false
    }

    /// The code in the newest text to `number` written at or after `since`. The server texts in the background
    /// just after it answers, so this looks again for up to 10 seconds.
    ///
    /// - Parameters:
    ///   - number: The E.164 number the text went to.
    ///   - since: When the request that sent it was made.
    /// - Returns: The 6-digit code.
    /// - Throws: ``ServerFailed`` when no such text arrives.
    func latestSMSCode(to number: String, since: Date) async throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try newestSMSCode(to: number, since: since)
            } catch  where Date() < deadline {
                try await Task.sleep(nanoseconds: 50_000_000)
            }
        }
    }

    private func newestSMSCode(to number: String, since: Date) throws -> String {
        let outbox = dataDirectory.appendingPathComponent("sms")
        let modified = { (file: URL) in
            (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
        }
        let files = try FileManager.default.contentsOfDirectory(at: outbox, includingPropertiesForKeys: [.contentModificationDateKey])
            .filter { $0.pathExtension == "txt" && !$0.lastPathComponent.hasPrefix(".") && modified($0) >= since.addingTimeInterval(-0.01) }
            .sorted { (modified($0), $0.lastPathComponent) < (modified($1), $1.lastPathComponent) }
        for file in files.reversed() {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            guard lines.contains(where: { $0.hasPrefix("To:") && $0.dropFirst(3).trimmingCharacters(in: .whitespaces) == number }) else {
                continue
            }
            // The code is in the text (the number's own digits are on the To: line).
            let text = lines.filter { !$0.hasPrefix("To:") }.joined(separator: "\n")
            if let match = text.range(of: #"\b\d{6}\b"#, options: .regularExpression) { return String(text[match]) }
        }
        throw ServerFailed(log: "no text to \(number) since \(since) in \(files.map(\.lastPathComponent))")
    }
}

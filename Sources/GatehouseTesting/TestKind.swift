import Foundation
import Testing

extension Tag {
    /// Starts `gatehouse` processes, a private PostgreSQL cluster and nginx: the slowest suites.
    @Tag public static var fleet: Self
    /// Talks to an emulator or a scripted peer in Python: moto (Cognito, SES, SNS) or aiosmtpd.
    @Tag public static var emulator: Self
    /// Starts an app or opens a database (SQLite files, and PostgreSQL when configured): every suite
    /// beyond the pure ones of the core, messaging, SigV4 and SMTP parsing. Skipping it with the two
    /// above leaves the inner loop of a few seconds.
    @Tag public static var integration: Self
    // There is no `.browser` tag: the browser suites (Chromium through Selenium) are Python scripts
    // under Tests/browser, run by `.ci/run`, not by `swift test`.
}

/// Which kinds of suite a run leaves out, for a fast inner loop: `GATEHOUSE_SKIP_TAGS=fleet,emulator
/// swift test` (no emulators), or `GATEHOUSE_SKIP_TAGS=fleet,emulator,integration` (pure suites only). SwiftPM's `--skip` matches test names only, so a tagged suite also carries
/// ``TestKind/runs(_:)`` as its condition. CI sets nothing and runs every suite.
public enum TestKind {
    /// The tags named in `GATEHOUSE_SKIP_TAGS` (comma-separated).
    public static let skipped: Set<String> = Set(
        (ProcessInfo.processInfo.environment["GATEHOUSE_SKIP_TAGS"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    )

    /// Whether suites tagged `tag` run in this process.
    /// - Parameter tag: The tag's name (`fleet`, `emulator`, `integration`).
    /// - Returns: False when `GATEHOUSE_SKIP_TAGS` names it.
    public static func runs(_ tag: String) -> Bool { !skipped.contains(tag) }
}

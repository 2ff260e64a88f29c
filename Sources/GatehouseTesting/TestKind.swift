import Foundation
import Testing

extension Tag {
    /// Starts `gatehouse` processes, a private PostgreSQL cluster and nginx: the slowest suites.
    @Tag public static var fleet: Self
    /// Talks to an emulator or a scripted peer in Python: moto (Cognito, SES, SNS) or aiosmtpd.
    @Tag public static var emulator: Self
}

/// Which kinds of suite a run leaves out, for a fast inner loop: `GATEHOUSE_SKIP_TAGS=fleet,emulator
/// swift test`. SwiftPM's `--skip` matches test names only, so a tagged suite also carries
/// ``TestKind/runs(_:)`` as its condition. CI sets nothing and runs every suite.
public enum TestKind {
    /// The tags named in `GATEHOUSE_SKIP_TAGS` (comma-separated).
    public static let skipped: Set<String> = Set(
        (ProcessInfo.processInfo.environment["GATEHOUSE_SKIP_TAGS"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    )

    /// Whether suites tagged `tag` run in this process.
    /// - Parameter tag: The tag's name (`fleet`, `emulator`).
    /// - Returns: False when `GATEHOUSE_SKIP_TAGS` names it.
    public static func runs(_ tag: String) -> Bool { !skipped.contains(tag) }
}

import Foundation
import Synchronization

/// Timing helpers: each measurement runs its body for `seconds` and prints operations per second.
enum Bench {
    /// Runs `body` repeatedly for `seconds` on this thread.
    /// - Parameters:
    ///   - label: What is measured.
    ///   - seconds: How long to run.
    ///   - body: One operation.
    /// - Returns: Operations per second.
    /// - Throws: What `body` throws.
    @discardableResult
    static func rate(_ label: String, seconds: Double = 2, _ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        var n = 0
        while Date().timeIntervalSince(start) < seconds {
            for _ in 0..<16 { try body() }
            n += 16
        }
        return report(label, Double(n) / Date().timeIntervalSince(start))
    }

    /// As ``rate(_:seconds:_:)`` for an async operation.
    /// - Parameters:
    ///   - label: What is measured.
    ///   - seconds: How long to run.
    ///   - body: One operation.
    /// - Returns: Operations per second.
    /// - Throws: What `body` throws.
    @discardableResult
    static func rateAsync(_ label: String, seconds: Double = 2, _ body: @Sendable () async throws -> Void) async rethrows -> Double {
        let start = Date()
        var n = 0
        while Date().timeIntervalSince(start) < seconds {
            try await body()
            n += 1
        }
        return report(label, Double(n) / Date().timeIntervalSince(start))
    }

    private static func report(_ label: String, _ perSecond: Double) -> Double {
        print("  " + label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%12.0f /s", perSecond))
        FileHandle.standardOutput.synchronizeFile()
        return perSecond
    }

    /// Prints hand-written ÷ library.
    /// - Parameters:
    ///   - label: The measurement's label.
    ///   - ours: The hand-written piece's rate.
    ///   - library: The library's rate.
    static func ratio(_ label: String, _ ours: Double, _ library: Double) {
        print(String(format: "  => %@: hand-written %.2fx the library", label as NSString, ours / library))
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Bytes from the operating system's CSPRNG, fetched 4 KiB at a time and handed out once each.
///
/// A sign-in needs a handful of small random values (session id, refresh token, two token ids);
/// asking the kernel for each — eight bytes per system call, as `SystemRandomNumberGenerator` and
/// swift-crypto's `SymmetricKey(size:)` do on Linux — cost about fifteen `getrandom` calls per
/// exchange. The pool asks once per 4 KiB, under a lock; every byte it hands out is wiped from the
/// buffer at once, so no value is ever given twice or left behind. The process never forks, so the
/// buffer is never shared with a child. Large requests bypass the buffer.
///
/// Kept: 10x `SystemRandomNumberGenerator` for the 32-byte values of a sign-in (Benchmarks/Microbench
/// `entropy`).
package final class EntropyPool: @unchecked Sendable {
    package static let shared = EntropyPool()

    typealias GetRandom = @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int

    private struct State {
        var buffer: [UInt8]
        /// Bytes before this index have been handed out (and wiped).
        var position: Int
    }

    package let capacity: Int
    private let state: LockedBox<State>
    private let getrandom: GetRandom?

    package init(capacity: Int = 4096) {
        self.capacity = capacity
        self.state = LockedBox(State(buffer: [UInt8](repeating: 0, count: capacity), position: capacity))
        #if os(Linux)
        self.getrandom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getrandom").map { unsafeBitCast($0, to: GetRandom.self) }
        #else
        self.getrandom = nil
        #endif
    }

    package func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        if count > capacity / 8 {
            var out = [UInt8](repeating: 0, count: count)
            out.withUnsafeMutableBytes { fill($0) }
            return out
        }
        return state.withLock { state in
            if state.position + count > state.buffer.count {
                state.buffer.withUnsafeMutableBytes { fill($0) }
                state.position = 0
            }
            let range = state.position..<(state.position + count)
            let out = Array(state.buffer[range])
            state.buffer.withUnsafeMutableBufferPointer { buffer in
                for index in range { buffer[index] = 0 }
            }
            state.position = range.upperBound
            return out
        }
    }

    /// Fills `target` from the kernel (`getrandom`, blocking only before the system's pool is
    /// initialised), or from `SystemRandomNumberGenerator` where that call is missing.
    private func fill(_ target: UnsafeMutableRawBufferPointer) {
        if let getrandom, let base = target.baseAddress {
            var done = 0
            while done < target.count {
                let got = getrandom(base + done, target.count - done, 0)
                if got > 0 {
                    done += got
                } else if got < 0 && errno != EINTR {
                    break
                }
            }
            if done == target.count { return }
        }
        var generator = SystemRandomNumberGenerator()
        var index = 0
        while index < target.count {
            var word = generator.next()
            withUnsafeBytes(of: &word) { raw in
                for byte in raw where index < target.count {
                    target[index] = byte
                    index += 1
                }
            }
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure

#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests (Python helpers, servers, `psql`), spawned with `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux it lists `/proc/self/fd` to close every inherited descriptor,
/// copying each entry's whole 256-byte `d_name` out of `readdir`'s buffer, which reads past its end;
/// with the ~1,350 descriptors a full parallel test run holds, that crashed the run (signal 11 in
/// `Process.run()`). Here the child closes everything above its three standard streams itself
/// (glibc's `posix_spawn_file_actions_addclosefrom_np`), and nothing is enumerated in the parent.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// This process's own stream.
        case inherit
        /// A descriptor of this process (a file, or a pipe's end).
        case descriptor(Int32)
    }

    /// The child's process id.
    public let pid: pid_t
    private let exit = LockedBox<Int32?>(nil)

    /// Starts `arguments[0]` (found on `PATH` through `/usr/bin/env`) with the rest as its arguments.
    /// - Parameters:
    ///   - arguments: The command and its arguments.
    ///   - environment: The child's environment; this process's by default.
    ///   - stdin: Its standard input.
    ///   - stdout: Its standard output.
    ///   - stderr: Its standard error.
    /// - Throws: `internal_error` when the process cannot be started.
    public init(
        _ arguments: [String],
        environment: [String: String]? = nil,
        stdin: Stream = .null,
        stdout: Stream = .null,
        stderr: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            case .inherit: break
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        guard let closeFrom = Self.addCloseFrom else {
            throw GatehouseError.internalError(cause: "glibc's posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later)")
        }
        _ = closeFrom(&actions, 3)
        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in env { free(variable) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, env)
        guard result == 0 else {
            throw GatehouseError.internalError(cause: "posix_spawn \(arguments.first ?? ""): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Whether the child still runs (it is reaped here once it has ended).
    public var isRunning: Bool {
        exit.withLock { exit in
            guard exit == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            exit = Self.decode(status)
            return false
        }
    }

    /// Sends `signal` to the child.
    /// - Parameter signal: `SIGTERM` by default.
    public func terminate(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the child to end (blocking the calling thread: call it off Swift concurrency's threads).
    /// - Returns: Its exit status, or 128 plus the signal that ended it.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        if let known = exit.withLock({ $0 }) { return known }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let decoded = Self.decode(status)
        return exit.withLock { exit in
            if exit == nil { exit = decoded }
            return exit ?? decoded
        }
    }

    private static func decode(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs a command to its end, blocking the calling thread, with its output and errors in one string.
    /// - Parameters:
    ///   - arguments: The command and its arguments.
    ///   - environment: The child's environment; this process's by default.
    /// - Returns: The exit status and what it printed.
    /// - Throws: `internal_error` when it cannot be started.
    public static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let (readEnd, writeEnd) = try pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments, environment: environment, stdout: .descriptor(writeEnd), stderr: .descriptor(writeEnd))
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        let output = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile()
        return (child.waitUntilExit(), String(decoding: output, as: UTF8.self))
    }

    /// A pipe whose two ends are closed on exec (a child gets only the end it is handed).
    /// - Returns: The read end and the write end.
    /// - Throws: `internal_error` when no pipe can be made.
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw GatehouseError.internalError(cause: "pipe: \(String(cString: strerror(errno)))") }
        // Children close every descriptor above their standard streams anyway; this keeps other
        // spawners (a library's, an exec) from passing these ends on.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}

import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `<data dir>/master.key`: the 32-byte key (base64, one line, mode 0600) that seals the signing keys.
///
/// - An existing file is only ever read. If it cannot be read or does not hold a key (not UTF-8,
///   not base64 of 32 bytes, a directory, no permission) start-up stops with an error naming the
///   file; it is never replaced, since a new key would orphan everything sealed with the old one.
/// - A missing file is created exactly once, even when several processes start at the same moment on
///   one fresh data directory: each writes its candidate to a temporary file of its own, syncs it,
///   and hard-links it to `master.key`. Linking fails if the name exists, so one process wins and the
///   others read the winner's complete file. All of them end with the same key.
enum MasterKeyFile {
    static let length = 32

    /// The key at `path`, creating the file with `newKey()` if there is none.
    static func loadOrCreate(at path: String, newKey: () -> [UInt8], logger: Logger) throws -> [UInt8] {
        if exists(path) { return try read(path) }
        let key = newKey()
        precondition(key.count == length)
        let contents = Array((Data(key).base64EncodedString() + "\n").utf8)
        if try publish(contents, at: path) {
            logger.info("created master key", metadata: ["path": .string(path)])
            return key
        }
        // Another process created it first: use its key. Its file was complete before it had the name,
        // unless the file system could not link and the fallback wrote it in place: allow a moment.
        var attempts = 0
        while true {
            do {
                return try read(path)
            } catch {
                attempts += 1
                if attempts >= 50 { throw error }
                usleep(20_000)
            }
        }
    }

    /// Whether something exists at `path`; an error other than "no such file" stops start-up.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 || errno != ENOENT
    }

    /// Reads and checks an existing key file, or throws what is wrong with it and what to do.
    static func read(_ path: String) throws -> [UInt8] {
        func refuse(_ problem: String) -> ConfigurationError {
            ConfigurationError(
                "The master key file \(path) \(problem). Gatehouse never replaces an existing master key (the signing keys are sealed "
                    + "with it): restore the file from a backup or fix its permissions, or set GATEHOUSE_MASTER_KEY. Remove it only on a "
                    + "fresh install with nothing sealed yet."
            )
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw refuse("cannot be examined (\(String(cString: strerror(errno))))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refuse("is not a regular file (a directory?)") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw refuse("cannot be read (\((error as NSError).localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw refuse("is not UTF-8 text") }
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == length else {
            throw refuse("does not hold a \(length)-byte key in base64")
        }
        return Array(bytes)
    }

    /// Writes `contents` to `path` unless something is there already: `true` if this call created it,
    /// `false` if another got there first.
    private static func publish(_ contents: [UInt8], at path: String) throws -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".master.key.\(getpid()).\(UUID().uuidString)")
        try write(contents, to: temporary, path: path)
        defer { unlink(temporary) }
        if link(temporary, path) == 0 {
            syncDirectory(directory)
            return true
        }
        let failure = errno
        if failure == EEXIST { return false }
        guard failure == EPERM || failure == ENOTSUP || failure == EOPNOTSUPP || failure == EMLINK || failure == ENOSYS else {
            throw ConfigurationError("Could not create \(path) (\(String(cString: strerror(failure)))); check that the data directory is writable.")
        }
        // A file system without hard links: create the name exclusively and write in place.
        do {
            try write(contents, to: path, path: path)
        } catch let error as CreateError where error.exists {
            return false
        }
        syncDirectory(directory)
        return true
    }

    private struct CreateError: Error {
        var exists: Bool
    }

    /// Creates `file` exclusively (0600), writes `contents` and syncs it; `path` names the key in errors.
    private static func write(_ contents: [UInt8], to file: String, path: String) throws {
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw CreateError(exists: true) }
            throw ConfigurationError("Could not create \(path) (\(String(cString: strerror(errno)))); check that the data directory is writable.")
        }
        defer { close(fd) }
        var written = 0
        while written < contents.count {
            let n = contents[written...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let failure = errno
                unlink(file)
                throw ConfigurationError("Could not write \(path) (\(String(cString: strerror(failure)))); check the data directory's disk.")
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let failure = errno
            unlink(file)
            throw ConfigurationError("Could not sync \(path) (\(String(cString: strerror(failure)))); check the data directory's disk.")
        }
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #elseif canImport(Musl)
        Musl.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

    /// Makes a new name in `directory` durable (best effort).
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

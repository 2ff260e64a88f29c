import Foundation
import Hummingbird
import NIOCore

/// Hummingbird's `FileProvider` over the web page's files embedded in the binary (``WebAssets``),
/// so `FileMiddleware` serves them as it would serve a directory: content type, `Content-Length`,
/// `Last-Modified`, `ETag`, conditional GET (304) and byte ranges.
///
/// `FileMiddleware` derives its weak `ETag` from a file's modification date and size. An embedded
/// file was last modified when the binary was built, so ``builtAt`` is the running executable's
/// modification date: a changed file needs a new build, which gets a new date, hence a new `ETag`,
/// and `Last-Modified` stays a real date (so `If-Modified-Since` cannot hold a changed file back).
/// A rebuild with unchanged files costs clients one full download, nothing more.
struct EmbeddedFileProvider: FileProvider {
    /// What `FileMiddleware` needs to know about a file.
    struct FileAttributes: FileMiddlewareFileAttributes, Sendable {
        let isFolder: Bool
        let size: Int
        let modificationDate: Date
    }

    /// A file's name under the base path, e.g. `app.js`.
    typealias FileIdentifier = String

    /// The served files by name.
    let files: [String: [UInt8]]

    /// - Parameter files: The files to serve, by name (no folders).
    init(files: [String: [UInt8]]) {
        self.files = files
    }

    /// When the running binary was built (its executable's modification date), read once on the
    /// first request; the time of that request if the executable cannot be read, so a changed file
    /// still never keeps an old `ETag`.
    static let builtAt: Date = {
        if let path = Bundle.main.executablePath, let date = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date {
            return date
        }
        return Date()
    }()

    /// - Parameter path: The request path below the base path, e.g. `/app.js`.
    /// - Returns: The file's name if it is one of ``files``.
    func getFileIdentifier(_ path: String) -> FileIdentifier? {
        let name = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return files[name] == nil ? nil : name
    }

    /// - Parameter id: A file's name.
    /// - Returns: Its size and ``builtAt``, or nil if there is no such file.
    func getAttributes(id: FileIdentifier) async throws -> FileAttributes? {
        files[id].map { FileAttributes(isFolder: false, size: $0.count, modificationDate: Self.builtAt) }
    }

    /// - Parameters:
    ///   - id: A file's name.
    ///   - context: The request's context.
    /// - Returns: The whole file.
    /// - Throws: `HTTPError(.notFound)` if there is no such file.
    func loadFile(id: FileIdentifier, context: some RequestContext) async throws -> ResponseBody {
        guard let bytes = files[id] else { throw HTTPError(.notFound) }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
    }

    /// - Parameters:
    ///   - id: A file's name.
    ///   - range: The bytes asked for (clamped to the file, as `FileMiddleware`'s `Content-Range` is).
    ///   - context: The request's context.
    /// - Returns: Those bytes of the file.
    /// - Throws: `HTTPError(.notFound)` if there is no such file, `.rangeNotSatisfiable` if the range
    ///   starts past its end.
    func loadFile(id: FileIdentifier, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard let bytes = files[id] else { throw HTTPError(.notFound) }
        let lower = max(range.lowerBound, 0)
        let upper = min(range.upperBound, bytes.count - 1)
        guard lower <= upper else { throw HTTPError(.rangeNotSatisfiable) }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes[lower...upper]))
    }
}

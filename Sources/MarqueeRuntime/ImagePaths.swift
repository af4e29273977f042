import Glibc
import MarqueeCore
import MarqueeRender

/// Image paths named in a deck: resolved against the deck file's folder and checked against
/// `--restrict-paths` where image requests are built, and checked whole by `check-deck`.
public enum ImagePaths {
    /// The absolute path to request for `value` (a deck's image field): a relative path is taken
    /// from the folder of the deck file (`deckPath`; the working directory for a deck without a
    /// file), then checked against `policy` (with a restriction, the path returned is the resolved
    /// one, symlinks and `..` gone, so the file read is the file checked). An error's message is
    /// what the `image-failed` event says (`ImageStore.reportRefused`).
    public static func resolve(_ value: String, deckPath: String?, policy: PathPolicy) -> Result<String, RuntimeError> {
        guard !value.isEmpty else { return .failure(RuntimeError("an empty image path")) }
        let absolute = value.hasPrefix("/") ? value : folder(of: deckPath) + "/" + value
        do {
            return .success(try policy.checkRead(absolute))
        } catch {
            return .failure(error)
        }
    }

    /// The absolute folder a deck's relative paths start from.
    static func folder(of deckPath: String?) -> String {
        var base = ""
        if let deckPath, let slash = deckPath.lastIndex(of: "/") {
            base = String(deckPath[..<slash])
            if base.isEmpty { return "/" }  // a deck at the root: "/deck.json"
            if base.hasPrefix("/") { return base }
        }
        var cwd = "."
        if let current = getcwd(nil, 0) {
            cwd = String(cString: current)
            free(current)
        }
        return base.isEmpty ? cwd : cwd + "/" + base
    }

    /// `check-deck`'s image problems: for each use of an image in the deck (its JSON path and
    /// the path as written), whether the file resolves within `policy` and can be read and decoded
    /// within `maximumPixels`. A file used by many cards is read once and reported at every use.
    public static func problems(
        _ uses: [(jsonPath: String, value: String)], deckPath: String?, policy: PathPolicy = .unrestricted,
        maximumPixels: Int = ImageStoreLimits.defaultMaximumPixels
    ) -> [DeckProblem] {
        var verdicts: [String: String?] = [:]
        var problems: [DeckProblem] = []
        for use in uses {
            let verdict: String?
            if let known = verdicts[use.value] {
                verdict = known
            } else {
                switch resolve(use.value, deckPath: deckPath, policy: policy) {
                case .failure(let error): verdict = error.message
                case .success(let path):
                    verdict = ImageCheck.problem(path: path, maximumPixels: maximumPixels).map { "\(use.value): \($0)" }
                }
                verdicts[use.value] = verdict
            }
            if let verdict { problems.append(DeckProblem(path: use.jsonPath, message: "image \(verdict)")) }
        }
        return problems
    }
}

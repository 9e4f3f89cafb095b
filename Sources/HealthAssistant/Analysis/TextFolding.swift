import Foundation

/// Folds a question to ASCII before it is parsed: curly quotes and dashes to their plain forms,
/// accented letters to their base letters, a degree sign after a number to "deg", and anything else outside
/// ASCII (emoji, other scripts) to a space. The rules and lexicons are written in ASCII, so
/// nothing they can match is lost; and ICU reads ASCII text through the Foundation bridge in
/// linear time, where long non-ASCII text once took hundreds of milliseconds per question.
enum TextFolding {
    static func ascii(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.append(scalar); continue }
            switch scalar {
            case "\u{2018}", "\u{2019}", "\u{02BC}", "\u{00B4}": out.append("'")
            case "\u{201C}", "\u{201D}": out.append("\"")
            case "\u{2013}", "\u{2014}", "\u{2212}": out.append("-")
            case "\u{2026}": out.append(contentsOf: "...".unicodeScalars)
            case "\u{00B0}", "\u{00BA}":
                // Only a reading has a unit: "38.5°C" → "38.5 degC"; a stray sign is a space.
                let afterDigit = out.last.map { ("0"..."9").contains(Character($0)) || $0 == " " } ?? false
                out.append(contentsOf: (afterDigit ? " deg" : " ").unicodeScalars)
            default:
                // A letter with a diacritic keeps its base letter ("fièvre" → "fievre").
                let base = String(scalar).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil).unicodeScalars
                if base.allSatisfy(\.isASCII), !base.isEmpty { out.append(contentsOf: base) } else { out.append(" ") }
            }
        }
        return String(out)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension MessageLanguage {
    /// The language the process's locale variables ask for now (read at each call: a program may set them
    /// after start-up, as `setlocale` lets a C program do).
    public static var current: MessageLanguage {
        fromLocale { name in getenv(name).map { String(cString: $0) } }
    }
}

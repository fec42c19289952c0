/// The type identifiers of the Security objects, listed once so that no two types share one (`CFGetTypeID`
/// tells objects apart by them). The values are this library's own; Apple's are assigned at run time.
enum SecTypeIdentifiers {
    static let accessControl: CFTypeID = 0x5EC0_0001
    static let certificate: CFTypeID = 0x5EC0_0002
    static let policy: CFTypeID = 0x5EC0_0003
    static let trust: CFTypeID = 0x5EC0_0004
    static let key: CFTypeID = 0x5EC0_0005
    static let identity: CFTypeID = 0x5EC0_0006
}

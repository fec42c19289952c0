// Security

// EngramCore

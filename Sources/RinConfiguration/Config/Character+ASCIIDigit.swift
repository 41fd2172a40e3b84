extension Character {
  // `isNumber` also accepts other scripts' digits and fractions, which Int64() rejects.
  var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

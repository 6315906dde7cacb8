/** The bytes are not JSON this decoder reads: the reference parser says why. */
export class RefusedJson extends Error {
  override name = "RefusedJson";
}

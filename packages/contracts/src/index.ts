export const API_VERSION: string = '1.0.0';

export * from './productController.js';

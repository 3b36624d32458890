const nodemailer = require('nodemailer');

module.exports = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });
